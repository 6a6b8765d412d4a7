package org.apache.flink.table.types;

/** SQL CHAR (Java Character). */
public final class CharType extends PrimitiveType {

    private static final long serialVersionUID = 1L;

    public static final CharType INSTANCE = new CharType();

    private CharType() {
    }

    @Override
    public String sqlName() {
        return "CHAR";
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
