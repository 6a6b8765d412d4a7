package org.apache.flink.table.types;

/** SQL VARBINARY (Java byte[]). */
public final class ByteArrayType extends AtomicType {

    private static final long serialVersionUID = 1L;

    public static final ByteArrayType INSTANCE = new ByteArrayType();

    private ByteArrayType() {
    }

    @Override
    public String sqlName() {
        return "VARBINARY";
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
