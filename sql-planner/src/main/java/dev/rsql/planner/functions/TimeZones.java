package dev.rsql.planner.functions;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.function.Deterministic;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.TimeZone;

/**
 * Time zones of generated code. The job's zone comes from the {@link DataContext} of the generated class (the
 * planner sets it from {@code table.local-time-zone} or {@code blink.job.timeZone}, default the system's zone).
 */
public final class TimeZones {

    /** Last zone looked up, so a per-row lookup is a field read in the usual case of one zone per job. */
    private static volatile Cached last = new Cached(TimeZone.getTimeZone("UTC"), ZoneOffset.UTC);

    private record Cached(TimeZone timeZone, ZoneId zone) {
    }

    private TimeZones() {
    }

    /** The job's time zone. */
    public static ZoneId of(DataContext root) {
        Object tz = root.get(DataContext.Variable.TIME_ZONE.camelName);
        if (!(tz instanceof TimeZone)) {
            return ZoneOffset.UTC;
        }
        Cached c = last;
        if (c.timeZone() == tz) {
            return c.zone();
        }
        ZoneId zone = ((TimeZone) tz).toZoneId();
        last = new Cached((TimeZone) tz, zone);
        return zone;
    }

    /** A zone given by name ({@code Asia/Shanghai}, {@code UTC}, {@code GMT+08:00}, {@code +08:00}); null if unknown. */
    @Deterministic
    public static ZoneId parse(String id) {
        if (id == null) {
            return null;
        }
        try {
            return ZoneId.of(id.trim(), ZoneId.SHORT_IDS);
        } catch (DateTimeException e) {
            return null;
        }
    }
}
