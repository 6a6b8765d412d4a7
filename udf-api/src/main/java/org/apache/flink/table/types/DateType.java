package org.apache.flink.table.types;

/** SQL DATE (Java {@code java.sql.Date}); Blink also used this class for month intervals. */
public final class DateType extends AtomicType {

    private static final long serialVersionUID = 1L;

    public static final DateType DATE = new DateType("DATE");
    public static final DateType INTERVAL_MONTHS = new DateType("INTERVAL MONTH");

    private final String sqlName;

    private DateType(String sqlName) {
        this.sqlName = sqlName;
    }

    @Override
    public String sqlName() {
        return sqlName;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DateType && ((DateType) o).sqlName.equals(sqlName);
    }

    @Override
    public int hashCode() {
        return sqlName.hashCode();
    }
}
