package org.apache.flink.table.types;

/** SQL SMALLINT (Java Short). */
public final class ShortType extends PrimitiveType {

    private static final long serialVersionUID = 1L;

    public static final ShortType INSTANCE = new ShortType();

    private ShortType() {
    }

    @Override
    public String sqlName() {
        return "SMALLINT";
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
