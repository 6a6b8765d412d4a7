package org.apache.flink.table.types;

/** SQL BIGINT (Java Long). */
public final class LongType extends PrimitiveType {

    private static final long serialVersionUID = 1L;

    public static final LongType INSTANCE = new LongType();

    private LongType() {
    }

    @Override
    public String sqlName() {
        return "BIGINT";
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
