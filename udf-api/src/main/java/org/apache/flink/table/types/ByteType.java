package org.apache.flink.table.types;

/** SQL TINYINT (Java Byte). */
public final class ByteType extends PrimitiveType {

    private static final long serialVersionUID = 1L;

    public static final ByteType INSTANCE = new ByteType();

    private ByteType() {
    }

    @Override
    public String sqlName() {
        return "TINYINT";
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
