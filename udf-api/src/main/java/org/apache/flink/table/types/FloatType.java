package org.apache.flink.table.types;

/** SQL FLOAT (Java Float). */
public final class FloatType extends PrimitiveType {

    private static final long serialVersionUID = 1L;

    public static final FloatType INSTANCE = new FloatType();

    private FloatType() {
    }

    @Override
    public String sqlName() {
        return "FLOAT";
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
