package org.apache.flink.types;

import java.io.Serializable;
import java.util.Arrays;

/** A row of fields by position, any of which may be null (Blink/Flink API). */
public class Row implements Serializable {

    private static final long serialVersionUID = 1L;

    private final Object[] fields;

    public Row(int arity) {
        this.fields = new Object[arity];
    }

    public static Row of(Object... values) {
        Row row = new Row(values.length);
        System.arraycopy(values, 0, row.fields, 0, values.length);
        return row;
    }

    public static Row copy(Row row) {
        return of(row.fields.clone());
    }

    public int getArity() {
        return fields.length;
    }

    public Object getField(int pos) {
        return fields[pos];
    }

    public void setField(int pos, Object value) {
        fields[pos] = value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Row && Arrays.deepEquals(fields, ((Row) o).fields);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(fields);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(fields[i] instanceof Object[] ? Arrays.deepToString((Object[]) fields[i]) : fields[i]);
        }
        return sb.toString();
    }
}
