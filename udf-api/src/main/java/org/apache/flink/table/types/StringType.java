package org.apache.flink.table.types;

/** SQL VARCHAR (Java String). */
public final class StringType extends AtomicType {

    private static final long serialVersionUID = 1L;

    public static final StringType INSTANCE = new StringType();

    private StringType() {
    }

    @Override
    public String sqlName() {
        return "VARCHAR";
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
