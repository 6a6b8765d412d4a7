package dev.rsql.runtime.connector.jdbc;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.types.DataType;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * Converts between the engine's internal values ({@link DataType}) and JDBC's: DATE days and TIME milliseconds to
 * {@code LocalDate}/{@code LocalTime}, TIMESTAMP milliseconds (a wall-clock time read as UTC) to
 * {@code LocalDateTime}, TIMESTAMP_LTZ milliseconds to an instant ({@code Timestamp}).
 */
final class JdbcValues {

    private JdbcValues() {
    }

    /** Refuses, at plan time, a column type a MySQL table cannot hold. */
    static void checkSupported(String table, String column, DataType type) {
        switch (type.kind()) {
            case ARRAY, MULTISET, MAP, ROW, NULL -> throw new ConfigException("JDBC table " + table + ": column "
                    + column + " has type " + type + ", which a MySQL table cannot hold");
            default -> {
            }
        }
    }

    static void set(PreparedStatement st, int index, DataType type, Object value) throws SQLException {
        if (value == null) {
            st.setNull(index, Types.NULL);
            return;
        }
        switch (type.kind()) {
            case DATE -> st.setObject(index, LocalDate.ofEpochDay(((Number) value).longValue()));
            case TIME -> st.setObject(index, LocalTime.ofNanoOfDay(((Number) value).longValue() * 1_000_000L));
            case TIMESTAMP -> st.setObject(index, toLocalDateTime(((Number) value).longValue()));
            case TIMESTAMP_LTZ -> st.setTimestamp(index, new Timestamp(((Number) value).longValue()));
            case BINARY, VARBINARY -> st.setBytes(index, (byte[]) value);
            default -> st.setObject(index, value);
        }
    }

    private static LocalDateTime toLocalDateTime(long millis) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000), (int) Math.floorMod(millis, 1000) * 1_000_000,
                ZoneOffset.UTC);
    }

    /** The value of column {@code index} of the current row, converted to the column's internal type; null for NULL. */
    static Object get(ResultSet rs, int index, DataType type) throws SQLException {
        Object v = switch (type.kind()) {
            case BOOLEAN -> rs.getBoolean(index);
            case TINYINT -> rs.getByte(index);
            case SMALLINT -> rs.getShort(index);
            case INT -> rs.getInt(index);
            case BIGINT -> rs.getLong(index);
            case FLOAT -> rs.getFloat(index);
            case DOUBLE -> rs.getDouble(index);
            case DECIMAL -> decimal(rs.getBigDecimal(index), type);
            case CHAR, VARCHAR -> rs.getString(index);
            case BINARY, VARBINARY -> rs.getBytes(index);
            case DATE -> {
                LocalDate d = rs.getObject(index, LocalDate.class);
                yield d == null ? null : (int) d.toEpochDay();
            }
            case TIME -> {
                LocalTime t = rs.getObject(index, LocalTime.class);
                yield t == null ? null : (int) (t.toNanoOfDay() / 1_000_000L);
            }
            case TIMESTAMP -> {
                LocalDateTime t = rs.getObject(index, LocalDateTime.class);
                yield t == null ? null : t.toInstant(ZoneOffset.UTC).toEpochMilli();
            }
            case TIMESTAMP_LTZ -> {
                Timestamp t = rs.getTimestamp(index);
                yield t == null ? null : t.getTime();
            }
            default -> throw new SQLException("column type " + type + " cannot be read from a MySQL table");
        };
        return rs.wasNull() ? null : v;
    }

    private static BigDecimal decimal(BigDecimal d, DataType type) {
        if (d == null || type.scale() < 0) {
            return d;
        }
        return d.setScale(type.scale(), java.math.RoundingMode.HALF_UP);
    }
}
