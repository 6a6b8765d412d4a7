package dev.rsql.runtime.graph;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A GROUP BY without a window that keeps its groups' accumulators in keyed state and emits their results as a
 * changelog (+I, -U/+U, -D): output the group fields, then one field per aggregate. Row by row or, with a
 * {@link MiniBatchSpec}, folding its input per key in batches.
 */
public abstract sealed class GroupStateNode extends GraphNode permits GroupAggregateNode, GlobalGroupAggregateNode {

    private final int[] groupFields;
    private final List<AggregateCall> aggregates;
    private final long stateTtlMillis;
    private final boolean updateBefore;
    private final MiniBatchSpec miniBatch;

    GroupStateNode(String id, GraphNode input, int[] groupFields, List<AggregateCall> aggregates, RowType outputType,
                   long stateTtlMillis, boolean updateBefore, MiniBatchSpec miniBatch) {
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

    /** The group fields of an input row. */
    public int[] groupFields() {
        return groupFields.clone();
    }

    public List<AggregateCall> aggregates() {
        return aggregates;
    }

    /** Drop a group's state after this long without updates (0 = keep forever). */
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
    public String describe() {
        return "group by " + Fields.names(input().outputType(), groupFields) + " "
                + aggregates.stream().map(AggregateCall::name).collect(Collectors.joining(", "))
                + (stateTtlMillis > 0 ? " state-ttl=" + stateTtlMillis + "ms" : "")
                + (miniBatch != null ? " " + miniBatch : "");
    }
}
