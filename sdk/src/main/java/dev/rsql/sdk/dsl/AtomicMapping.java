package dev.rsql.sdk.dsl;

import dev.rsql.runtime.types.RowType;

/** A single-column element: a String, a number, a time... */
final class AtomicMapping<T> implements RowMapping<T> {

    private final FieldType field;
    private final RowType rowType;

    AtomicMapping(String column, FieldType field) {
        this.field = field;
        this.rowType = RowType.builder().field(column, field.dataType()).build();
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public void write(T value, Object[] row, int offset) {
        row[offset] = field.toInternal().apply(value);
    }

    @SuppressWarnings("unchecked")
    @Override
    public T read(Object[] row, int offset) {
        return (T) field.fromInternal().apply(row[offset]);
    }

    @Override
    public String toString() {
        return field.javaType().getSimpleName();
    }
}
