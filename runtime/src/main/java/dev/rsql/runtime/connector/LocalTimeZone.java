package dev.rsql.runtime.connector;

import java.time.ZoneId;
import java.util.List;

/**
 * The job's local time zone, Flink's {@code table.local-time-zone} (from SET or the engine's settings): how
 * TIMESTAMP_LTZ values are shown and wall-clock option values are read. Default, unknown or no job: the system's.
 */
public final class LocalTimeZone {

    /** The settings naming it, first found wins: Flink's, Blink's, and two older spellings. */
    public static final List<String> KEYS = List.of("table.local-time-zone", "blink.job.timeZone", "timezone",
            "time-zone");

    private LocalTimeZone() {
    }

    public static ZoneId of(JobInfo job) {
        String z = job == null ? null : job.config().get(KEYS.toArray(new String[0]));
        if (z == null || z.isBlank() || z.trim().equalsIgnoreCase("default")) {
            return ZoneId.systemDefault();
        }
        try {
            return ZoneId.of(z.trim(), ZoneId.SHORT_IDS);
        } catch (RuntimeException e) {
            return ZoneId.systemDefault();
        }
    }
}
