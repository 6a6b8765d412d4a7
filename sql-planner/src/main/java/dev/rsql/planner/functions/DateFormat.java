package dev.rsql.planner.functions;

import org.apache.calcite.linq4j.function.Deterministic;

import java.text.ParsePosition;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TimeZone;

/**
 * A {@link SimpleDateFormat} pattern (Blink's DATE_FORMAT, UNIX_TIMESTAMP, ... use SimpleDateFormat patterns), compiled
 * once per constant pattern (the generated call to {@link #compile} is hoisted into a static field) and cached for
 * patterns from columns. Works on wall-clock times: the engine's TIMESTAMP value read as UTC. Thread-safe (one
 * SimpleDateFormat per thread; patterns of numeric fields only are printed by {@link NumericDateFormat}). Parsing is
 * strict (no rolling over of 2024-02-30) and, as SimpleDateFormat does, ignores text after the pattern.
 */
public final class DateFormat {

    public static final String DEFAULT_PATTERN = "yyyy-MM-dd HH:mm:ss";

    private static final int CACHE_SIZE = 1000;
    private static final TimeZone UTC = TimeZone.getTimeZone("UTC");
    private static final Map<String, DateFormat> CACHE = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, DateFormat> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    private final String pattern;
    private final String error;
    private final ThreadLocal<SimpleDateFormat> format;
    /** Null unless the pattern has numeric fields only. */
    private final NumericDateFormat numeric;

    private DateFormat(String pattern, String error, NumericDateFormat numeric) {
        this.pattern = pattern;
        this.error = error;
        this.numeric = numeric;
        this.format = error != null ? null : ThreadLocal.withInitial(() -> {
            SimpleDateFormat f = new SimpleDateFormat(pattern);
            f.setTimeZone(UTC);
            f.setLenient(false);
            return f;
        });
    }

    /** The format of a pattern; an invalid pattern compiles, and fails when used. */
    @Deterministic
    public static DateFormat compile(String pattern) {
        if (pattern == null) {
            return null;
        }
        synchronized (CACHE) {
            DateFormat f = CACHE.get(pattern);
            if (f == null) {
                String error = null;
                NumericDateFormat numeric = null;
                try {
                    numeric = NumericDateFormat.of(pattern, new SimpleDateFormat(pattern));
                } catch (IllegalArgumentException e) {
                    error = e.getMessage();
                }
                f = new DateFormat(pattern, error, numeric);
                CACHE.put(pattern, f);
            }
            return f;
        }
    }

    /** Null when the pattern is valid, else why not (for checking constant patterns while planning). */
    public static String check(String pattern) {
        return compile(pattern).error;
    }

    public String pattern() {
        return pattern;
    }

    private SimpleDateFormat get() {
        if (error != null) {
            throw new IllegalArgumentException("invalid date format '" + pattern + "': " + error);
        }
        return format.get();
    }

    /** Formats a wall-clock time (epoch milliseconds read as UTC). */
    public String format(long wallMillis) {
        if (numeric != null && NumericDateFormat.covers(wallMillis)) {
            return numeric.format(wallMillis);
        }
        return get().format(new Date(wallMillis));
    }

    /** Parses text into a wall-clock time, or null when it does not match the pattern. */
    public Long parse(String text) {
        ParsePosition pos = new ParsePosition(0);
        Date d = get().parse(text, pos);
        return d == null || pos.getErrorIndex() >= 0 ? null : d.getTime();
    }

    @Override
    public String toString() {
        return pattern;
    }
}
