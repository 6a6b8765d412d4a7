package dev.rsql.runtime.format;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;

/**
 * Turns an epoch number read into a TIMESTAMP column into that instant's wall-clock time in the job's
 * {@code table.local-time-zone}, as Flink's {@code CAST(TO_TIMESTAMP_LTZ(ms, 3) AS TIMESTAMP(3))} does (a TIMESTAMP
 * holds wall-clock fields, kept as milliseconds read as UTC). rsqldb's JSON carries event times as epoch numbers and
 * showed them in the local zone. TIMESTAMP_LTZ values are instants and are never shifted.
 */
public final class EpochWallClock {

    /** No shift: the wall-clock time in UTC. */
    public static final EpochWallClock UTC = new EpochWallClock(ZoneOffset.UTC);

    private final ZoneRules rules;
    private final boolean fixed;
    private final long fixedOffsetMillis;

    private EpochWallClock(ZoneId zone) {
        this.rules = zone.getRules();
        this.fixed = rules.isFixedOffset();
        this.fixedOffsetMillis = fixed ? rules.getOffset(Instant.EPOCH).getTotalSeconds() * 1000L : 0;
    }

    public static EpochWallClock of(ZoneId zone) {
        return zone.normalized().equals(ZoneOffset.UTC) ? UTC : new EpochWallClock(zone);
    }

    /** The TIMESTAMP value (wall-clock fields as epoch milliseconds in UTC) of the instant {@code epochMillis}. */
    public long wallClock(long epochMillis) {
        if (fixed) {
            return epochMillis + fixedOffsetMillis;
        }
        return epochMillis + rules.getOffset(Instant.ofEpochMilli(epochMillis)).getTotalSeconds() * 1000L;
    }
}
