package dev.rsql.runtime.data;

import java.util.Arrays;
import java.util.Objects;

/**
 * One record: a change kind and field values in their internal representation (see
 * {@link dev.rsql.runtime.types.DataType}). Rows are not copied between operators; an operator that keeps a
 * row must not change it afterwards.
 */
public final class Row {

    private final RowKind kind;
    private final Object[] fields;

    public Row(RowKind kind, Object[] fields) {
        this.kind = Objects.requireNonNull(kind);
        this.fields = fields;
    }

    public static Row insert(Object... fields) {
        return new Row(RowKind.INSERT, fields);
    }

    public RowKind kind() {
        return kind;
    }

    public Object[] fields() {
        return fields;
    }

    public Object get(int i) {
        return fields[i];
    }

    public int arity() {
        return fields.length;
    }

    public Row withKind(RowKind newKind) {
        return newKind == kind ? this : new Row(newKind, fields);
    }

    public Row withFields(Object[] newFields) {
        return new Row(kind, newFields);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Row && kind == ((Row) o).kind && Arrays.deepEquals(fields, ((Row) o).fields);
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + Arrays.deepHashCode(fields);
    }

    @Override
    public String toString() {
        return kind.shortString() + Arrays.deepToString(fields);
    }
}
