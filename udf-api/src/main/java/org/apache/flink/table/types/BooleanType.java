package org.apache.flink.table.types;

/** SQL BOOLEAN (Java Boolean). */
public final class BooleanType extends PrimitiveType {

    private static final long serialVersionUID = 1L;

    public static final BooleanType INSTANCE = new BooleanType();

    private BooleanType() {
    }

    @Override
    public String sqlName() {
        return "BOOLEAN";
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
