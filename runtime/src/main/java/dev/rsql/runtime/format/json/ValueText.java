package dev.rsql.runtime.format.json;

import dev.rsql.runtime.format.EpochWallClock;
import dev.rsql.runtime.types.DataType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Text forms of internal values, shared by the text formats (JSON, CSV), the print sink and datagen: parsing of
 * dates, times and timestamps in the accepted layouts, conversion of a string to a column's internal value, and
 * SQL-style rendering.
 *
 * <p>Accepted input layouts: DATE {@code yyyy-MM-dd}; TIME {@code HH:mm[:ss[.fraction]]}; TIMESTAMP
 * {@code yyyy-MM-dd[( |T)HH:mm[:ss[.fraction]][Z|+hh[:mm]|-hh[:mm]]]} (a zone offset is converted to UTC) or an
 * integer (epoch milliseconds). Fractions beyond milliseconds are truncated. Parsing is hand-written: it is on the
 * hot path of every text format.
 */
public final class ValueText {

    private static final long MILLIS_PER_DAY = 86_400_000L;
    static final long NOT_FIXED = Long.MIN_VALUE;

    private ValueText() {
    }

    // ------------------------------------------------------------------------------------------ parsing

    /** Days since the epoch of a {@code yyyy-MM-dd} date. */
    public static int parseDate(String text) {
        String s = text.trim();
        Cursor c = new Cursor(s);
        long days = c.date();
        if (c.i != s.length()) {
            throw new IllegalArgumentException("not a date (yyyy-MM-dd): " + quote(text));
        }
        return (int) days;
    }

    /** Milliseconds of the day of a {@code HH:mm[:ss[.fraction]]} time. */
    public static int parseTime(String text) {
        String s = text.trim();
        Cursor c = new Cursor(s);
        int millis = c.time();
        if (millis < 0 || c.i != s.length()) {
            throw new IllegalArgumentException("not a time (HH:mm:ss[.SSS]): " + quote(text));
        }
        return millis;
    }

    /**
     * Epoch milliseconds of a timestamp: {@code yyyy-MM-dd HH:mm:ss[.fraction]}, the ISO form with {@code T} and an
     * optional offset or {@code Z}, a bare date (midnight), or an integer of epoch milliseconds. Without an offset
     * the wall-clock time is read as UTC.
     */
    public static long parseTimestamp(String text) {
        return parseTimestamp(text, EpochWallClock.UTC);
    }

    /** As {@link #parseTimestamp(String)}, an integer of epoch milliseconds going through {@code epochs}. */
    public static long parseTimestamp(String text, EpochWallClock epochs) {
        String s = text.trim();
        long fixed = fixedLayout(s);
        if (fixed != NOT_FIXED) {
            return fixed;
        }
        if (isInteger(s)) {
            try {
                return epochs.wallClock(Long.parseLong(s));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("epoch milliseconds out of range: " + quote(text));
            }
        }
        Cursor c = new Cursor(s);
        long days = c.date();
        long millis = days * MILLIS_PER_DAY;
        if (c.i < s.length()) {
            char sep = s.charAt(c.i);
            if (sep != ' ' && sep != 'T' && sep != 't') {
                throw c.fail();
            }
            c.i++;
            int t = c.time();
            if (t < 0) {
                throw c.fail();
            }
            millis += t;
            millis -= c.offsetMillis();
            if (c.i != s.length()) {
                throw c.fail();
            }
        }
        return millis;
    }

    /**
     * The usual layouts, {@code yyyy-MM-dd HH:mm:ss[.SSS]} (or with {@code T}), read at fixed positions; {@link
     * #NOT_FIXED} for any other text, and for values out of range, which the general reading then rejects.
     */
    private static long fixedLayout(String s) {
        int n = s.length();
        // other than Latin-1 becomes '?', which is no digit or separator
        return n == 19 || n == 23 ? fixedLayout(s.getBytes(StandardCharsets.ISO_8859_1), 0, n) : NOT_FIXED;
    }

    /** As {@link #fixedLayout(String)} for the text of the {@code n} bytes at {@code b[from]} (ASCII expected). */
    static long fixedLayout(byte[] b, int from, int n) {
        if (n != 19 && n != 23) {
            return NOT_FIXED;
        }
        byte sep = b[from + 10];
        if (b[from + 4] != '-' || b[from + 7] != '-' || (sep != ' ' && sep != 'T' && sep != 't')
                || b[from + 13] != ':' || b[from + 16] != ':' || (n == 23 && b[from + 19] != '.')) {
            return NOT_FIXED;
        }
        int year = fixedDigits(b, from, 4);
        int month = fixedDigits(b, from + 5, 2);
        int day = fixedDigits(b, from + 8, 2);
        int hour = fixedDigits(b, from + 11, 2);
        int minute = fixedDigits(b, from + 14, 2);
        int second = fixedDigits(b, from + 17, 2);
        int millis = n == 23 ? fixedDigits(b, from + 20, 3) : 0;
        if ((year | month | day | hour | minute | second | millis) < 0 || month < 1 || month > 12 || day < 1
                || day > lengthOfMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
            return NOT_FIXED;
        }
        return daysFromCivil(year, month, day) * MILLIS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
    }

    /** The number of the {@code count} digits at {@code from}, or -1 when one is not a digit. */
    private static int fixedDigits(byte[] b, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    private static boolean isInteger(String s) {
        int n = s.length();
        int i = n > 0 && (s.charAt(0) == '-' || s.charAt(0) == '+') ? 1 : 0;
        if (i == n) {
            return false;
        }
        for (; i < n; i++) {
            char ch = s.charAt(i);
            if (ch < '0' || ch > '9') {
                return false;
            }
        }
        return true;
    }

    /** A position in a date/time string. */
    private static final class Cursor {
        final String s;
        int i;

        Cursor(String s) {
            this.s = s;
        }

        IllegalArgumentException fail() {
            return new IllegalArgumentException("not a timestamp (yyyy-MM-dd HH:mm:ss[.SSS], ISO-8601 or epoch millis): "
                    + quote(s));
        }

        /** Reads 1..max digits; -1 when there is none. */
        int digits(int max) {
            int start = i;
            int v = 0;
            while (i < s.length() && i - start < max) {
                char ch = s.charAt(i);
                if (ch < '0' || ch > '9') {
                    break;
                }
                v = v * 10 + (ch - '0');
                i++;
            }
            return i == start ? -1 : v;
        }

        boolean accept(char ch) {
            if (i < s.length() && s.charAt(i) == ch) {
                i++;
                return true;
            }
            return false;
        }

        long date() {
            boolean negative = accept('-');
            int start = i;
            int year = digits(9);
            if (year < 0 || i - start < 4 || !accept('-')) {
                throw new IllegalArgumentException("not a date (yyyy-MM-dd): " + quote(s));
            }
            int month = digits(2);
            if (month < 1 || month > 12 || !accept('-')) {
                throw new IllegalArgumentException("not a date (yyyy-MM-dd): " + quote(s));
            }
            int day = digits(2);
            long y = negative ? -year : year;
            if (day < 1 || day > lengthOfMonth(y, month)) {
                throw new IllegalArgumentException("not a date (yyyy-MM-dd): " + quote(s));
            }
            return daysFromCivil(y, month, day);
        }

        /** Millis of day, or -1 when malformed. */
        int time() {
            int h = digits(2);
            if (h < 0 || h > 23 || !accept(':')) {
                return -1;
            }
            int start = i;
            int m = digits(2);
            if (m < 0 || m > 59 || i - start != 2) {
                return -1;
            }
            int sec = 0;
            int millis = 0;
            if (accept(':')) {
                start = i;
                sec = digits(2);
                if (sec < 0 || sec > 59 || i - start != 2) {
                    return -1;
                }
                if (accept('.') || accept(',')) {
                    start = i;
                    int scale = 0;
                    while (i < s.length()) {
                        char ch = s.charAt(i);
                        if (ch < '0' || ch > '9') {
                            break;
                        }
                        if (scale < 3) {
                            millis = millis * 10 + (ch - '0');
                            scale++;
                        }
                        i++;
                    }
                    if (i == start) {
                        return -1;
                    }
                    while (scale++ < 3) {
                        millis *= 10;
                    }
                }
            }
            return ((h * 60 + m) * 60 + sec) * 1000 + millis;
        }

        /** Reads an optional zone: Z, +hh, +hhmm, +hh:mm (or -). */
        long offsetMillis() {
            if (i >= s.length()) {
                return 0;
            }
            char ch = s.charAt(i);
            if (ch == 'Z' || ch == 'z') {
                i++;
                return 0;
            }
            if (ch == ' ' && s.regionMatches(true, i + 1, "UTC", 0, 3) && i + 4 == s.length()) {
                i += 4;
                return 0;
            }
            if (ch != '+' && ch != '-') {
                throw fail();
            }
            i++;
            int start = i;
            int hh = digits(2);
            if (hh < 0 || i - start != 2 || hh > 18) {
                throw fail();
            }
            int mm = 0;
            boolean colon = accept(':');
            if (colon || i < s.length()) {
                start = i;
                mm = digits(2);
                if (mm < 0 || i - start != 2 || mm > 59) {
                    throw fail();
                }
            }
            long off = (hh * 60L + mm) * 60_000L;
            return ch == '-' ? -off : off;
        }
    }

    static boolean isLeap(long y) {
        return (y & 3) == 0 && (y % 100 != 0 || y % 400 == 0);
    }

    static int lengthOfMonth(long y, int m) {
        switch (m) {
            case 2:
                return isLeap(y) ? 29 : 28;
            case 4:
            case 6:
            case 9:
            case 11:
                return 30;
            default:
                return 31;
        }
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date. */
    public static long daysFromCivil(long y, int m, int d) {
        y -= m <= 2 ? 1 : 0;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    // ------------------------------------------------------------------------------------------ formatting

    /** {@code yyyy-MM-dd}. */
    public static String formatDate(int days) {
        StringBuilder sb = new StringBuilder(10);
        appendDate(sb, days);
        return sb.toString();
    }

    /** {@code HH:mm:ss}, with {@code .SSS} when the milliseconds are not zero. */
    public static String formatTime(int millisOfDay) {
        StringBuilder sb = new StringBuilder(12);
        appendTime(sb, millisOfDay, false);
        return sb.toString();
    }

    /** {@code yyyy-MM-dd HH:mm:ss.SSS} (UTC). */
    public static String formatTimestamp(long epochMillis) {
        StringBuilder sb = new StringBuilder(23);
        appendTimestamp(sb, epochMillis, ' ');
        return sb.toString();
    }

    /** {@code yyyy-MM-ddTHH:mm:ss.SSS} (UTC, no zone designator). */
    public static String formatTimestampIso(long epochMillis) {
        StringBuilder sb = new StringBuilder(23);
        appendTimestamp(sb, epochMillis, 'T');
        return sb.toString();
    }

    public static void appendTimestamp(StringBuilder sb, long epochMillis, char separator) {
        long days = Math.floorDiv(epochMillis, MILLIS_PER_DAY);
        int millisOfDay = (int) Math.floorMod(epochMillis, MILLIS_PER_DAY);
        appendDate(sb, days);
        sb.append(separator);
        appendTime(sb, millisOfDay, true);
    }

    public static void appendDate(StringBuilder sb, long days) {
        long z = days + 719468;
        long era = Math.floorDiv(z, 146097);
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long y = yoe + era * 400;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int d = (int) (doy - (153 * mp + 2) / 5 + 1);
        int m = (int) (mp < 10 ? mp + 3 : mp - 9);
        if (m <= 2) {
            y++;
        }
        if (y < 0 || y > 9999) {
            sb.append(LocalDate.ofEpochDay(days));
            return;
        }
        pad(sb, (int) y, 4);
        sb.append('-');
        pad(sb, m, 2);
        sb.append('-');
        pad(sb, d, 2);
    }

    /** {@code HH:mm:ss} plus {@code .SSS} when {@code alwaysMillis} or the milliseconds are not zero. */
    public static void appendTime(StringBuilder sb, int millisOfDay, boolean alwaysMillis) {
        int ms = millisOfDay % 1000;
        int secs = millisOfDay / 1000;
        pad(sb, secs / 3600, 2);
        sb.append(':');
        pad(sb, secs / 60 % 60, 2);
        sb.append(':');
        pad(sb, secs % 60, 2);
        if (alwaysMillis || ms != 0) {
            sb.append('.');
            pad(sb, ms, 3);
        }
    }

    private static void pad(StringBuilder sb, int v, int width) {
        if (width >= 4 && v < 1000) {
            sb.append('0');
        }
        if (width >= 3 && v < 100) {
            sb.append('0');
        }
        if (v < 10) {
            sb.append('0');
        }
        sb.append(v);
    }

    // ------------------------------------------------------------------------------------------ conversions

    /**
     * Converts a string to the internal value of a column (CSV fields, map keys, datagen value lists). ARRAY, MAP,
     * MULTISET and ROW are read as JSON text.
     *
     * @throws IllegalArgumentException when the text does not fit the type
     */
    public static Object fromString(DataType type, String text) {
        String t;
        switch (type.kind()) {
            case CHAR:
            case VARCHAR:
                return text;
            case BOOLEAN:
                t = text.trim();
                if (t.equalsIgnoreCase("true")) {
                    return Boolean.TRUE;
                }
                if (t.equalsIgnoreCase("false")) {
                    return Boolean.FALSE;
                }
                throw cannot(text, type);
            case TINYINT:
            case SMALLINT:
            case INT:
            case BIGINT:
                return integral(type, parseIntegral(text, type));
            case FLOAT:
                return (float) parseDouble(text, type);
            case DOUBLE:
                return parseDouble(text, type);
            case DECIMAL:
                try {
                    return fitDecimal(new BigDecimal(text.trim()), type, text);
                } catch (NumberFormatException e) {
                    throw cannot(text, type);
                }
            case BINARY:
            case VARBINARY:
                return decodeBase64(text, type);
            case DATE:
                return parseDate(text);
            case TIME:
                return parseTime(text);
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                return parseTimestamp(text);
            case NULL:
                return null;
            default:
                return JsonValueParser.of(type).parseOrThrow(text);
        }
    }

    static long parseIntegral(String text, DataType type) {
        String t = text.trim();
        int n = t.length();
        if (n > 0 && n < 19 && isInteger(t)) {
            return Long.parseLong(t);
        }
        try {
            BigDecimal bd = new BigDecimal(t);
            return integralOf(bd, text, type);
        } catch (NumberFormatException e) {
            throw cannot(text, type);
        }
    }

    /** The exact long value of an integral decimal; rejects fractions and overflow. */
    static long integralOf(BigDecimal bd, Object original, DataType type) {
        try {
            return bd.longValueExact();
        } catch (ArithmeticException e) {
            throw cannot(original, type);
        }
    }

    /** Boxes a long as the type's class after a range check. */
    static Object integral(DataType type, long v) {
        switch (type.kind()) {
            case TINYINT:
                if (v < Byte.MIN_VALUE || v > Byte.MAX_VALUE) {
                    throw outOfRange(v, type);
                }
                return (byte) v;
            case SMALLINT:
                if (v < Short.MIN_VALUE || v > Short.MAX_VALUE) {
                    throw outOfRange(v, type);
                }
                return (short) v;
            case INT:
                if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                    throw outOfRange(v, type);
                }
                return (int) v;
            default:
                return v;
        }
    }

    private static IllegalArgumentException outOfRange(long v, DataType type) {
        return new IllegalArgumentException(v + " is out of the range of " + type.nullable());
    }

    static double parseDouble(String text, DataType type) {
        String t = text.trim();
        if (t.isEmpty()) {
            throw cannot(text, type);
        }
        char last = t.charAt(t.length() - 1);
        if (last == 'd' || last == 'D' || last == 'f' || last == 'F') {
            throw cannot(text, type);   // Java literal suffixes are not numbers in data
        }
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            if (t.equalsIgnoreCase("nan")) {
                return Double.NaN;
            }
            if (t.equalsIgnoreCase("inf") || t.equalsIgnoreCase("+inf") || t.equalsIgnoreCase("infinity")) {
                return Double.POSITIVE_INFINITY;
            }
            if (t.equalsIgnoreCase("-inf") || t.equalsIgnoreCase("-infinity")) {
                return Double.NEGATIVE_INFINITY;
            }
            throw cannot(text, type);
        }
    }

    /** Rounds to the type's scale (half up) and checks the precision. */
    public static BigDecimal fitDecimal(BigDecimal bd, DataType type, Object original) {
        BigDecimal r = bd.scale() == type.scale() ? bd : bd.setScale(type.scale(), RoundingMode.HALF_UP);
        if (r.precision() > type.precision() && r.signum() != 0) {
            throw new IllegalArgumentException(describe(original) + " does not fit " + type.nullable());
        }
        return r;
    }

    static byte[] decodeBase64(String text, DataType type) {
        String t = text.trim();
        try {
            return Base64.getDecoder().decode(t);
        } catch (IllegalArgumentException e) {
            try {
                return Base64.getUrlDecoder().decode(t);
            } catch (IllegalArgumentException e2) {
                throw new IllegalArgumentException("cannot read " + describe(text) + " as " + type.nullable()
                        + " (base64 expected)");
            }
        }
    }

    static IllegalArgumentException cannot(Object value, DataType type) {
        return new IllegalArgumentException("cannot read " + describe(value) + " as " + type.nullable());
    }

    /** A value for messages: strings quoted, long ones cut. */
    public static String describe(Object value) {
        if (value instanceof String) {
            return quote((String) value);
        }
        String s = String.valueOf(value);
        return s.length() > 120 ? s.substring(0, 117) + "..." : s;
    }

    static String quote(String s) {
        String body = s.length() > 120 ? s.substring(0, 117) + "..." : s;
        StringBuilder sb = new StringBuilder(body.length() + 2).append('"');
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    /**
     * SQL-style text of a value, as CAST(x AS STRING) shows it: timestamps {@code yyyy-MM-dd HH:mm:ss.SSS}, dates
     * {@code yyyy-MM-dd}, decimals plain, arrays {@code [a, b]}, maps {@code {k=v}}, rows {@code (a, b)}, bytes
     * {@code x'0a1b'}, nulls {@code null}.
     */
    public static String toSqlString(DataType type, Object value) {
        StringBuilder sb = new StringBuilder();
        appendSql(sb, type, value);
        return sb.toString();
    }

    public static void appendSql(StringBuilder sb, DataType type, Object value) {
        if (value == null) {
            sb.append("null");
            return;
        }
        switch (type.kind()) {
            case DATE:
                appendDate(sb, ((Number) value).intValue());
                return;
            case TIME:
                appendTime(sb, ((Number) value).intValue(), false);
                return;
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                appendTimestamp(sb, ((Number) value).longValue(), ' ');
                return;
            case DECIMAL:
                sb.append(((BigDecimal) value).toPlainString());
                return;
            case BINARY:
            case VARBINARY:
                sb.append("x'");
                for (byte b : (byte[]) value) {
                    sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
                }
                sb.append('\'');
                return;
            case ARRAY:
            case MULTISET: {
                DataType et = type.elementType();
                sb.append('[');
                boolean first = true;
                for (Object e : (List<?>) value) {
                    if (!first) {
                        sb.append(", ");
                    }
                    first = false;
                    appendSql(sb, et, e);
                }
                sb.append(']');
                return;
            }
            case MAP: {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                    if (!first) {
                        sb.append(", ");
                    }
                    first = false;
                    appendSql(sb, type.keyType(), e.getKey());
                    sb.append('=');
                    appendSql(sb, type.valueType(), e.getValue());
                }
                sb.append('}');
                return;
            }
            case ROW: {
                Object[] fields = (Object[]) value;
                List<DataType> types = type.fieldTypes();
                sb.append('(');
                for (int i = 0; i < fields.length; i++) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    appendSql(sb, i < types.size() ? types.get(i) : DataType.string(), fields[i]);
                }
                sb.append(')');
                return;
            }
            default:
                sb.append(value);
        }
    }

    /**
     * Text of a scalar value for text formats: like {@link #toSqlString} but BYTES in base64 and ARRAY, MAP and ROW
     * as JSON (so {@link #fromString} reads it back).
     */
    public static String toText(DataType type, Object value, boolean isoTimestamps) {
        switch (type.kind()) {
            case BINARY:
            case VARBINARY:
                return Base64.getEncoder().encodeToString((byte[]) value);
            case ARRAY:
            case MULTISET:
            case MAP:
            case ROW:
                return JsonValueWriter.toJson(type, value);
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                return isoTimestamps ? formatTimestampIso(((Number) value).longValue())
                        : formatTimestamp(((Number) value).longValue());
            case FLOAT:
            case DOUBLE: {
                double d = ((Number) value).doubleValue();
                if (Double.isNaN(d)) {
                    return "NaN";
                }
                if (Double.isInfinite(d)) {
                    return d > 0 ? "Infinity" : "-Infinity";
                }
                return value.toString();
            }
            default:
                return toSqlString(type, value);
        }
    }
}
