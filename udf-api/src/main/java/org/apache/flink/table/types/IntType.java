package org.apache.flink.table.types;

/** SQL INT (Java Integer). */
public final class IntType extends PrimitiveType {

    private static final long serialVersionUID = 1L;

    public static final IntType INSTANCE = new IntType();

    private IntType() {
    }

    @Override
    public String sqlName() {
        return "INT";
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
