package org.apache.flink.table.types;

/** SQL TIME (Java java.sql.Time). */
public final class TimeType extends AtomicType {

    private static final long serialVersionUID = 1L;

    public static final TimeType INSTANCE = new TimeType();

    private TimeType() {
    }

    @Override
    public String sqlName() {
        return "TIME";
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
