package dev.rsql.planner.functions;

import org.apache.calcite.avatica.util.ByteString;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * Conversions generated code applies between the engine's internal values (TIMESTAMP as epoch milliseconds of the
 * wall-clock time read as UTC, DATE as days, TIME as milliseconds of the day, binary as {@link ByteString} inside
 * expressions) and the Java classes user functions declare ({@code java.sql.Timestamp}, {@code LocalDate},
 * {@code byte[]}...). A {@code java.sql.Timestamp} shows the same wall-clock time as the SQL value, as in Flink.
 * Every method maps null to null.
 */
public final class JavaValues {

    private static final long MILLIS_PER_DAY = 86_400_000L;

    private JavaValues() {
    }

    public static Timestamp toTimestamp(Long millis) {
        return millis == null ? null : Timestamp.valueOf(toLocalDateTime(millis));
    }

    public static LocalDateTime toLocalDateTime(Long millis) {
        return millis == null ? null : LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC);
    }

    public static Instant toInstant(Long millis) {
        return millis == null ? null : Instant.ofEpochMilli(millis);
    }

    public static Date toDate(Integer days) {
        return days == null ? null : Date.valueOf(LocalDate.ofEpochDay(days));
    }

    public static LocalDate toLocalDate(Integer days) {
        return days == null ? null : LocalDate.ofEpochDay(days);
    }

    public static Time toTime(Integer millisOfDay) {
        return millisOfDay == null ? null : Time.valueOf(toLocalTime(millisOfDay));
    }

    public static LocalTime toLocalTime(Integer millisOfDay) {
        return millisOfDay == null ? null : LocalTime.ofNanoOfDay(millisOfDay * 1_000_000L);
    }

    public static byte[] toBytes(ByteString b) {
        return b == null ? null : b.getBytes();
    }

    public static Character toCharacter(String s) {
        return s == null || s.isEmpty() ? null : s.charAt(0);
    }

    public static char toChar(String s) {
        return s.isEmpty() ? '\0' : s.charAt(0);
    }

    public static Long fromTimestamp(Timestamp t) {
        return t == null ? null : fromLocalDateTime(t.toLocalDateTime());
    }

    public static Long fromLocalDateTime(LocalDateTime t) {
        return t == null ? null : t.toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    public static Long fromInstant(Instant t) {
        return t == null ? null : t.toEpochMilli();
    }

    public static Integer fromDate(Date d) {
        return d == null ? null : (int) d.toLocalDate().toEpochDay();
    }

    public static Integer fromLocalDate(LocalDate d) {
        return d == null ? null : (int) d.toEpochDay();
    }

    public static Integer fromTime(Time t) {
        return t == null ? null : (int) (t.toLocalTime().toNanoOfDay() / 1_000_000L);
    }

    public static Integer fromLocalTime(LocalTime t) {
        return t == null ? null : (int) (t.toNanoOfDay() / 1_000_000L);
    }

    public static ByteString fromBytes(byte[] b) {
        return b == null ? null : new ByteString(b);
    }

    public static String fromCharacter(Character c) {
        return c == null ? null : String.valueOf(c);
    }

    /** An internal value as the Java object a user function receives for an {@code Object} parameter. */
    public static Object toExternal(Object internal, String sqlType) {
        if (internal == null) {
            return null;
        }
        switch (sqlType) {
            case "TIMESTAMP":
                return toTimestamp(((Number) internal).longValue());
            case "DATE":
                return toDate(((Number) internal).intValue());
            case "TIME":
                return toTime(((Number) internal).intValue());
            default:
                return internal instanceof ByteString ? ((ByteString) internal).getBytes() : internal;
        }
    }

    /**
     * A Java value a user function returned, as the internal value of {@code sqlType} (a {@code SqlTypeName} name);
     * used when the declared result type is not the Java return type (e.g. {@code eval} returns Object and
     * {@code getResultType} names the type).
     */
    public static Object toInternal(Object v, String sqlType) {
        if (v == null) {
            return null;
        }
        switch (sqlType) {
            case "VARCHAR":
            case "CHAR":
                return v instanceof byte[] ? new String((byte[]) v, java.nio.charset.StandardCharsets.UTF_8)
                        : v.toString();
            case "BOOLEAN":
                return v instanceof Boolean ? v : Boolean.valueOf(v.toString());
            case "TINYINT":
                return number(v).byteValue();
            case "SMALLINT":
                return number(v).shortValue();
            case "INTEGER":
                return number(v).intValue();
            case "BIGINT":
                return number(v).longValue();
            case "REAL":
                return number(v).floatValue();
            case "FLOAT":
            case "DOUBLE":
                return number(v).doubleValue();
            case "DECIMAL":
                return decimal(v);
            case "TIMESTAMP":
            case "TIMESTAMP_WITH_LOCAL_TIME_ZONE":
                if (v instanceof Timestamp) {
                    return fromTimestamp((Timestamp) v);
                }
                if (v instanceof LocalDateTime) {
                    return fromLocalDateTime((LocalDateTime) v);
                }
                if (v instanceof Instant) {
                    return fromInstant((Instant) v);
                }
                if (v instanceof java.util.Date) {
                    return ((java.util.Date) v).getTime();
                }
                return number(v).longValue();
            case "DATE":
                if (v instanceof Date) {
                    return fromDate((Date) v);
                }
                if (v instanceof LocalDate) {
                    return fromLocalDate((LocalDate) v);
                }
                return number(v).intValue();
            case "TIME":
                if (v instanceof Time) {
                    return fromTime((Time) v);
                }
                if (v instanceof LocalTime) {
                    return fromLocalTime((LocalTime) v);
                }
                return number(v).intValue();
            case "BINARY":
            case "VARBINARY":
                return v instanceof byte[] ? new ByteString((byte[]) v) : v;
            default:
                return v;
        }
    }

    /** Like {@link #toInternal} but for rows leaving the engine's expressions: binary as {@code byte[]}. */
    public static Object toRowValue(Object v, String sqlType) {
        Object internal = toInternal(v, sqlType);
        return internal instanceof ByteString ? ((ByteString) internal).getBytes() : internal;
    }

    private static Number number(Object v) {
        if (v instanceof Number) {
            return (Number) v;
        }
        if (v instanceof Boolean) {
            return (Boolean) v ? 1 : 0;
        }
        return new BigDecimal(v.toString().trim());
    }

    private static BigDecimal decimal(Object v) {
        if (v instanceof BigDecimal) {
            return (BigDecimal) v;
        }
        if (v instanceof BigInteger) {
            return new BigDecimal((BigInteger) v);
        }
        if (v instanceof Double || v instanceof Float) {
            return BigDecimal.valueOf(((Number) v).doubleValue());
        }
        if (v instanceof Number) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        return new BigDecimal(v.toString().trim());
    }

    /** Days since the epoch of an internal TIMESTAMP. */
    public static int dateOf(long millis) {
        return (int) Math.floorDiv(millis, MILLIS_PER_DAY);
    }
}
