package org.apache.flink.table.types;

/** SQL DOUBLE (Java Double). */
public final class DoubleType extends PrimitiveType {

    private static final long serialVersionUID = 1L;

    public static final DoubleType INSTANCE = new DoubleType();

    private DoubleType() {
    }

    @Override
    public String sqlName() {
        return "DOUBLE";
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
