package org.apache.flink.table.types;

/** A type without components (Blink API). */
public abstract class AtomicType implements InternalType {

    private static final long serialVersionUID = 1L;

    /** The SQL name of the type, e.g. {@code VARCHAR}. */
    public abstract String sqlName();

    @Override
    public String toString() {
        return sqlName();
    }
}
