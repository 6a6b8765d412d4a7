package dev.rsql.planner.translate;

import dev.rsql.planner.PlanningException;
import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.graph.MiniBatchSpec;

import java.time.Duration;
import java.util.Locale;

/**
 * How non-window GROUP BYs run, from Flink's settings: mini-batches ({@code table.exec.mini-batch.enabled},
 * {@code .allow-latency}, {@code .size}), local/global phases ({@code table.optimizer.agg-phase-strategy}) and the
 * split of distinct aggregates ({@code table.optimizer.distinct-agg.split.enabled}, {@code .bucket-num}).
 *
 * @param miniBatch null when mini-batch is off
 * @param distinctSplitBuckets buckets of a split distinct aggregate; 0 when splitting is off
 */
public record AggregationSettings(MiniBatchSpec miniBatch, PhaseStrategy phases, int distinctSplitBuckets) {

    /** {@code table.optimizer.agg-phase-strategy}. */
    public enum PhaseStrategy { AUTO, ONE_PHASE, TWO_PHASE }

    public static final AggregationSettings DEFAULT = new AggregationSettings(null, PhaseStrategy.AUTO, 0);

    static final String MINI_BATCH = "table.exec.mini-batch.enabled";
    static final String LATENCY = "table.exec.mini-batch.allow-latency";
    static final String SIZE = "table.exec.mini-batch.size";
    static final String PHASES = "table.optimizer.agg-phase-strategy";
    static final String SPLIT = "table.optimizer.distinct-agg.split.enabled";
    static final String BUCKETS = "table.optimizer.distinct-agg.split.bucket-num";

    /** Reads the settings; a wrong or missing value is a plan error (at {@code check}). */
    public static AggregationSettings from(Options o) {
        try {
            MiniBatchSpec miniBatch = null;
            if (o.getBoolean(false, MINI_BATCH)) {
                Duration latency = o.getDuration(Duration.ZERO, LATENCY);
                long size = o.getLong(-1, SIZE);
                if (latency.toMillis() <= 0) {
                    throw new PlanningException("'" + MINI_BATCH + "' is true, so '" + LATENCY + "' must be set to a"
                            + " positive duration, such as '2 s'");
                }
                if (size <= 0) {
                    throw new PlanningException("'" + MINI_BATCH + "' is true, so '" + SIZE + "' must be set to a"
                            + " positive number of rows, such as '5000'");
                }
                miniBatch = new MiniBatchSpec(latency.toMillis(), size);
            }
            String phases = o.getOrDefault("AUTO", PHASES).trim().toUpperCase(Locale.ROOT);
            PhaseStrategy strategy;
            try {
                strategy = PhaseStrategy.valueOf(phases);
            } catch (IllegalArgumentException e) {
                throw new PlanningException("'" + PHASES + "' must be AUTO, ONE_PHASE or TWO_PHASE, got '"
                        + o.get(PHASES) + "'");
            }
            int buckets = 0;
            if (o.getBoolean(false, SPLIT)) {
                buckets = o.getInt(1024, BUCKETS);
                if (buckets <= 0) {
                    throw new PlanningException("'" + BUCKETS + "' must be a positive number, got " + buckets);
                }
            }
            return new AggregationSettings(miniBatch, strategy, buckets);
        } catch (ConfigException e) {
            throw new PlanningException(e.getMessage());
        }
    }

    /** True when a GROUP BY whose aggregates all merge runs as a local and a global phase (mini-batch needed). */
    public boolean twoPhase() {
        return miniBatch != null && phases != PhaseStrategy.ONE_PHASE;
    }
}
