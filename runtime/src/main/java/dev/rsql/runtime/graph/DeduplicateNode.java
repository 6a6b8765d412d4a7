package dev.rsql.runtime.graph;

import java.util.List;

/**
 * Keeps one row per value of the key fields: the first or the last, by arrival (processing time) or by the time
 * field (event time; keep-first replaces its row by one with an earlier time, keep-last by one with the same or a
 * later time, as Flink's RowTimeDeduplicateFunction). Emits +I for a key's first row and an update when its row is
 * replaced; keep-first on processing time is insert-only. Its input is insert-only and partitioned by the key fields.
 */
public final class DeduplicateNode extends GraphNode {

    private final int[] keyFields;
    private final int timeField;
    private final boolean eventTime;
    private final boolean keepLast;
    private final boolean updateBefore;
    private final long stateTtlMillis;

    /**
     * @param updateBefore emit -U before each +U
     * @param stateTtlMillis forget a key after this long without changes (0 = keep forever)
     */
    public DeduplicateNode(String id, GraphNode input, int[] keyFields, int timeField, boolean eventTime,
                           boolean keepLast, boolean updateBefore, long stateTtlMillis) {
        super(id, List.of(input), input.outputType());
        this.keyFields = keyFields.clone();
        this.timeField = timeField;
        this.eventTime = eventTime;
        this.keepLast = keepLast;
        this.updateBefore = updateBefore;
        this.stateTtlMillis = stateTtlMillis;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public int[] keyFields() {
        return keyFields.clone();
    }

    public int timeField() {
        return timeField;
    }

    public boolean eventTime() {
        return eventTime;
    }

    public boolean keepLast() {
        return keepLast;
    }

    public boolean emitsUpdateBefore() {
        return updateBefore;
    }

    public long stateTtlMillis() {
        return stateTtlMillis;
    }

    @Override
    public boolean producesUpdates() {
        return eventTime || keepLast;
    }

    @Override
    public boolean keepsState() {
        return true;
    }

    @Override
    public String kind() {
        return "Deduplicate";
    }

    @Override
    public String describe() {
        return "keep " + (keepLast ? "last" : "first") + " row by " + (eventTime ? "event" : "processing")
                + " time per " + Fields.names(outputType(), keyFields)
                + (stateTtlMillis > 0 ? " state-ttl=" + stateTtlMillis + "ms" : "");
    }
}
