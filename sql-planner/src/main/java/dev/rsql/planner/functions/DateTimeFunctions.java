package dev.rsql.planner.functions;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Date and time built-ins with Blink semantics. A TIMESTAMP value is a wall-clock time (epoch milliseconds read as
 * UTC); functions that convert between wall-clock times and instants (epoch seconds/milliseconds) use the job's time
 * zone, their first Java parameter (UTC unless the job sets {@code table.local-time-zone} or
 * {@code blink.job.timeZone}). Unparseable date strings give NULL.
 */
public final class DateTimeFunctions {

    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final DateFormat DEFAULT = DateFormat.compile(DateFormat.DEFAULT_PATTERN);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd");

    private DateTimeFunctions() {
    }

    // ---- instants <-> wall-clock time ----------------------------------------------------------------------------

    /** The wall-clock time in {@code zone} of an instant. */
    static long toWall(long instantMillis, ZoneId zone) {
        if (zone == ZoneOffset.UTC) {
            return instantMillis;
        }
        LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(instantMillis), zone);
        return t.toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    /** The instant of a wall-clock time in {@code zone}. */
    static long toInstant(long wallMillis, ZoneId zone) {
        if (zone == ZoneOffset.UTC) {
            return wallMillis;
        }
        LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(wallMillis), ZoneOffset.UTC);
        return t.atZone(zone).toInstant().toEpochMilli();
    }

    private static ZoneId zone(ZoneId zone, String what) {
        if (zone == null) {
            throw new IllegalArgumentException("unknown time zone" + (what == null ? "" : " " + what));
        }
        return zone;
    }

    // ---- NOW, UNIX_TIMESTAMP, FROM_UNIXTIME ----------------------------------------------------------------------

    /** NOW(): the current time in epoch seconds (Blink; Flink's NOW() is a TIMESTAMP_LTZ). */
    public static long now() {
        return System.currentTimeMillis() / 1000;
    }

    /** NOW(offset): epoch seconds plus {@code offset} seconds. */
    public static long now(int offsetSeconds) {
        return now() + offsetSeconds;
    }

    public static long unixTimestamp() {
        return now();
    }

    /** UNIX_TIMESTAMP(s): epoch seconds of a 'yyyy-MM-dd HH:mm:ss' string in the job's time zone. */
    public static Long unixTimestamp(ZoneId zone, String date) {
        return unixTimestamp(zone, date, DEFAULT);
    }

    public static Long unixTimestamp(ZoneId zone, String date, DateFormat format) {
        Long wall = format.parse(date);
        return wall == null ? null : Math.floorDiv(toInstant(wall, zone), 1000L);
    }

    /** UNIX_TIMESTAMP(ts): epoch seconds of a TIMESTAMP (a wall-clock time in the job's time zone). */
    public static long unixTimestamp(ZoneId zone, long timestamp) {
        return Math.floorDiv(toInstant(timestamp, zone), 1000L);
    }

    /** FROM_UNIXTIME(seconds [, format]): the time in the job's zone as text, default 'yyyy-MM-dd HH:mm:ss'. */
    public static String fromUnixtime(ZoneId zone, long seconds) {
        return fromUnixtime(zone, seconds, DEFAULT);
    }

    public static String fromUnixtime(ZoneId zone, long seconds, DateFormat format) {
        return format.format(toWall(seconds * 1000L, zone));
    }

    // ---- TO_TIMESTAMP, TO_DATE -----------------------------------------------------------------------------------

    /** TO_TIMESTAMP(ms): epoch milliseconds as a TIMESTAMP in the job's time zone (Blink; Flink has no such form). */
    public static long toTimestamp(ZoneId zone, long epochMillis) {
        return toWall(epochMillis, zone);
    }

    /** TO_TIMESTAMP(s): 'yyyy-MM-dd HH:mm:ss[.fraction]' (or 'yyyy-MM-dd') as a TIMESTAMP. */
    public static Long toTimestamp(String s) {
        return parseDefault(s);
    }

    public static Long toTimestamp(String s, DateFormat format) {
        return format.parse(s);
    }

    /** TO_DATE(days): days since 1970-01-01 as a DATE. */
    public static int toDate(int days) {
        return days;
    }

    /** TO_DATE(s): 'yyyy-MM-dd' (a time part is ignored) as a DATE. */
    public static Integer toDate(String s) {
        LocalDate d = parseDay(s);
        return d == null ? null : (int) d.toEpochDay();
    }

    public static Integer toDate(String s, DateFormat format) {
        Long wall = format.parse(s);
        return wall == null ? null : (int) Math.floorDiv(wall, MILLIS_PER_DAY);
    }

    // ---- DATE_FORMAT and time zones ------------------------------------------------------------------------------

    /** DATE_FORMAT(ts, format). */
    public static String dateFormat(long timestamp, DateFormat format) {
        return format.format(timestamp);
    }

    /** DATE_FORMAT(s, format): s read as 'yyyy-MM-dd HH:mm:ss'. */
    public static String dateFormat(String s, DateFormat format) {
        return dateFormat(s, DEFAULT, format);
    }

    /** DATE_FORMAT(s, fromFormat, toFormat) (Blink only). */
    public static String dateFormat(String s, DateFormat from, DateFormat to) {
        Long wall = from.parse(s);
        return wall == null ? null : to.format(wall);
    }

    /** CAST(ltz AS VARCHAR): the instant's wall-clock time in the job's zone, with {@code precision} fraction digits. */
    public static String ltzToString(ZoneId zone, long instant, int precision) {
        return org.apache.calcite.avatica.util.DateTimeUtils.unixTimestampToString(toWall(instant, zone), precision);
    }

    /** DATE_FORMAT_TZ(ts, tz): the TIMESTAMP (in the job's zone) as 'yyyy-MM-dd HH:mm:ss' in zone tz. */
    public static String dateFormatTz(ZoneId zone, long timestamp, ZoneId tz) {
        return dateFormatTz(zone, timestamp, DEFAULT, tz);
    }

    public static String dateFormatTz(ZoneId zone, long timestamp, DateFormat format, ZoneId tz) {
        return format.format(toWall(toInstant(timestamp, zone), zone(tz, null)));
    }

    /** TO_TIMESTAMP_TZ(s, tz): s, a time in zone tz, as a TIMESTAMP in the job's zone. */
    public static Long toTimestampTz(ZoneId zone, String s, ZoneId tz) {
        Long wall = parseDefault(s);
        return wall == null ? null : toWall(toInstant(wall, zone(tz, null)), zone);
    }

    public static Long toTimestampTz(ZoneId zone, String s, DateFormat format, ZoneId tz) {
        Long wall = format.parse(s);
        return wall == null ? null : toWall(toInstant(wall, zone(tz, null)), zone);
    }

    /** CONVERT_TZ(s, from, to): a 'yyyy-MM-dd HH:mm:ss' time in zone {@code from} as the same instant in {@code to}. */
    public static String convertTz(String s, ZoneId from, ZoneId to) {
        Long wall = parseDefault(s);
        if (wall == null) {
            return null;
        }
        return DEFAULT.format(toWall(toInstant(wall, zone(from, null)), zone(to, null)));
    }

    // ---- DATE_ADD, DATE_SUB, DATEDIFF ----------------------------------------------------------------------------

    /** DATE_ADD(s, days): the date of s plus days, as 'yyyy-MM-dd'. */
    public static String dateAdd(String start, int days) {
        LocalDate d = parseDay(start);
        return d == null ? null : d.plusDays(days).format(DAY);
    }

    public static String dateAdd(long start, int days) {
        return LocalDate.ofEpochDay(Math.floorDiv(start, MILLIS_PER_DAY)).plusDays(days).format(DAY);
    }

    public static String dateSub(String start, int days) {
        return dateAdd(start, -days);
    }

    public static String dateSub(long start, int days) {
        return dateAdd(start, -days);
    }

    /** DATEDIFF(end, start): days from the date of start to the date of end. */
    public static Integer datediff(String end, String start) {
        LocalDate e = parseDay(end);
        LocalDate s = parseDay(start);
        return e == null || s == null ? null : (int) (e.toEpochDay() - s.toEpochDay());
    }

    public static int datediff(long end, long start) {
        return (int) (Math.floorDiv(end, MILLIS_PER_DAY) - Math.floorDiv(start, MILLIS_PER_DAY));
    }

    public static Integer datediff(String end, long start) {
        LocalDate e = parseDay(end);
        return e == null ? null : (int) (e.toEpochDay() - Math.floorDiv(start, MILLIS_PER_DAY));
    }

    public static Integer datediff(long end, String start) {
        LocalDate s = parseDay(start);
        return s == null ? null : (int) (Math.floorDiv(end, MILLIS_PER_DAY) - s.toEpochDay());
    }

    // ---- parsing -------------------------------------------------------------------------------------------------

    /** 'yyyy-MM-dd' at the start of s (what follows, e.g. a time, is ignored); null if it is not a date. */
    static LocalDate parseDay(String s) {
        String t = s.trim();
        if (t.length() < 10 || (t.length() > 10 && t.charAt(10) != ' ' && t.charAt(10) != 'T')) {
            return null;
        }
        try {
            return LocalDate.parse(t.substring(0, 10), DAY);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /**
     * 'yyyy-MM-dd', 'yyyy-MM-dd HH:mm', 'yyyy-MM-dd HH:mm:ss' or with a fraction of up to 9 digits (kept to the
     * millisecond); 'T' may separate date and time. Null if s is none of these.
     */
    static Long parseDefault(String s) {
        String t = s.trim();
        LocalDate day = parseDay(t);
        if (day == null) {
            return null;
        }
        long millis = day.toEpochDay() * MILLIS_PER_DAY;
        if (t.length() == 10) {
            return millis;
        }
        String time = t.substring(11);
        int n = time.length();
        if (n < 5 || time.charAt(2) != ':') {
            return null;
        }
        int h = digits(time, 0, 2);
        int m = digits(time, 3, 5);
        int sec = 0;
        int frac = 0;
        if (n > 5) {
            if (n < 8 || time.charAt(5) != ':') {
                return null;
            }
            sec = digits(time, 6, 8);
            if (n > 8) {
                if (time.charAt(8) != '.' || n == 9 || n > 18) {
                    return null;
                }
                String f = (time.substring(9) + "000").substring(0, 3);
                frac = digits(f, 0, 3);
                if (digits(time, 9, n) < 0) {
                    return null;
                }
            }
        }
        if (h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 59 || frac < 0) {
            return null;
        }
        return millis + ((h * 60L + m) * 60 + sec) * 1000 + frac;
    }

    private static int digits(String s, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
            if (v > 100_000_000) {
                v = 100_000_000;
            }
        }
        return v;
    }
}
