package dev.rsql.runtime.graph;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.stream.Collectors;

/**
 * GROUP BY without a window: one result row per group, updated as rows arrive. Emits a changelog: +I for a new
 * group, -U/+U when its result changes (only +U when no consumer needs the update-before row, e.g. a sink keyed by
 * the group fields), -D when its last row is taken back. Output: the group fields, then one field per
 * aggregate. Its input must be partitioned by the group fields (an {@link ExchangeNode}). With a {@link MiniBatchSpec}
 * it folds its input per key in batches.
 */
public final class GroupAggregateNode extends GraphNode {

    private final int[] groupFields;
    private final List<AggregateCall> aggregates;
    private final long stateTtlMillis;
    private final boolean updateBefore;
    private final MiniBatchSpec miniBatch;

    /**
     * @param stateTtlMillis drop a group's state after this long without updates (0 = keep forever)
     * @param updateBefore emit -U before each +U
     */
    public GroupAggregateNode(String id, GraphNode input, int[] groupFields, List<AggregateCall> aggregates,
                              RowType outputType, long stateTtlMillis, boolean updateBefore) {
        this(id, input, groupFields, aggregates, outputType, stateTtlMillis, updateBefore, null);
    }

    /** @param miniBatch how to batch the input, null for row by row */
    public GroupAggregateNode(String id, GraphNode input, int[] groupFields, List<AggregateCall> aggregates,
                              RowType outputType, long stateTtlMillis, boolean updateBefore, MiniBatchSpec miniBatch) {
        super(id, List.of(input), outputType);
        if (outputType.size() != groupFields.length + aggregates.size()) {
            throw new IllegalArgumentException("aggregate output needs one field per group field and aggregate");
        }
        this.groupFields = groupFields.clone();
        this.aggregates = List.copyOf(aggregates);
        this.stateTtlMillis = stateTtlMillis;
        this.updateBefore = updateBefore;
        this.miniBatch = miniBatch;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public int[] groupFields() {
        return groupFields.clone();
    }

    public List<AggregateCall> aggregates() {
        return aggregates;
    }

    public long stateTtlMillis() {
        return stateTtlMillis;
    }

    /** True when an update is sent as -U and +U, false when as +U alone. */
    public boolean emitsUpdateBefore() {
        return updateBefore;
    }

    /** The mini-batch settings, or null when rows are folded one by one. */
    public MiniBatchSpec miniBatch() {
        return miniBatch;
    }

    @Override
    public boolean producesUpdates() {
        return true;
    }

    @Override
    public boolean keepsState() {
        return true;
    }

    @Override
    public String kind() {
        return "GroupAggregate";
    }

    @Override
    public String describe() {
        return "group by " + Fields.names(input().outputType(), groupFields) + " "
                + aggregates.stream().map(AggregateCall::name).collect(Collectors.joining(", "))
                + (stateTtlMillis > 0 ? " state-ttl=" + stateTtlMillis + "ms" : "")
                + (miniBatch != null ? " " + miniBatch : "");
    }
}
