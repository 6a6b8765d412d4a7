package dev.rsql.runtime.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations as written in options: {@code 500}, {@code 500ms}, {@code 10 s}, {@code 5 min}, {@code PT1H}. */
public final class Durations {

    private static final Pattern PATTERN = Pattern.compile("(\\d+)\\s*([a-zA-Z]*)");

    private Durations() {
    }

    public static Duration parse(String text) {
        String t = text.trim();
        if (t.toUpperCase(Locale.ROOT).startsWith("PT")) {
            return Duration.parse(t.toUpperCase(Locale.ROOT));
        }
        Matcher m = PATTERN.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration: '" + text + "'");
        }
        long n = Long.parseLong(m.group(1));
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "":
            case "ms":
            case "milli":
            case "millis":
            case "millisecond":
            case "milliseconds":
                return Duration.ofMillis(n);
            case "s":
            case "sec":
            case "second":
            case "seconds":
                return Duration.ofSeconds(n);
            case "m":
            case "min":
            case "minute":
            case "minutes":
                return Duration.ofMinutes(n);
            case "h":
            case "hour":
            case "hours":
                return Duration.ofHours(n);
            case "d":
            case "day":
            case "days":
                return Duration.ofDays(n);
            default:
                throw new IllegalArgumentException("unknown time unit in '" + text + "'");
        }
    }
}
