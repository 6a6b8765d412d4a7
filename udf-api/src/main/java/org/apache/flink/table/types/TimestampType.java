package org.apache.flink.table.types;

/** SQL TIMESTAMP (Java {@code java.sql.Timestamp}); Blink also used this class for time attributes and intervals. */
public final class TimestampType extends AtomicType {

    private static final long serialVersionUID = 1L;

    public static final TimestampType TIMESTAMP = new TimestampType("TIMESTAMP");
    public static final TimestampType INTERVAL_MILLIS = new TimestampType("INTERVAL SECOND");
    public static final TimestampType ROWTIME_INDICATOR = new TimestampType("TIMESTAMP");
    public static final TimestampType PROCTIME_INDICATOR = new TimestampType("TIMESTAMP");

    private final String sqlName;

    private TimestampType(String sqlName) {
        this.sqlName = sqlName;
    }

    @Override
    public String sqlName() {
        return sqlName;
    }
}
