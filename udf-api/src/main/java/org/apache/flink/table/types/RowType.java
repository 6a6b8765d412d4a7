package org.apache.flink.table.types;

import java.util.Arrays;

/** A row of typed, optionally named fields: what {@link DataTypes#createRowType} returns. */
public final class RowType implements InternalType {

    private static final long serialVersionUID = 1L;

    private final DataType[] fieldTypes;
    private final String[] fieldNames;

    public RowType(DataType[] fieldTypes, String[] fieldNames) {
        if (fieldNames != null && fieldNames.length != fieldTypes.length) {
            throw new IllegalArgumentException(fieldTypes.length + " field types but " + fieldNames.length + " names");
        }
        this.fieldTypes = fieldTypes.clone();
        this.fieldNames = fieldNames == null ? defaultNames(fieldTypes.length) : fieldNames.clone();
    }

    private static String[] defaultNames(int n) {
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            names[i] = "f" + i;
        }
        return names;
    }

    public int getArity() {
        return fieldTypes.length;
    }

    public DataType[] getFieldTypes() {
        return fieldTypes.clone();
    }

    public String[] getFieldNames() {
        return fieldNames.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowType && Arrays.equals(fieldTypes, ((RowType) o).fieldTypes)
                && Arrays.equals(fieldNames, ((RowType) o).fieldNames);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(fieldTypes) * 31 + Arrays.hashCode(fieldNames);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("ROW<");
        for (int i = 0; i < fieldTypes.length; i++) {
            sb.append(i > 0 ? ", " : "").append(fieldNames[i]).append(' ').append(fieldTypes[i]);
        }
        return sb.append('>').toString();
    }
}
