package dev.rsql.runtime.graph;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.types.RowType;

import java.util.List;

/**
 * GROUP BY without a window: one result row per group, updated as rows arrive. Emits a changelog: +I for a new
 * group, -U/+U when its result changes (only +U when no consumer needs the update-before row, e.g. a sink keyed by
 * the group fields), -D when its last row is taken back. Output: the group fields, then one field per
 * aggregate. Its input must be partitioned by the group fields (an {@link ExchangeNode}). With a {@link MiniBatchSpec}
 * it folds its input per key in batches.
 */
public final class GroupAggregateNode extends GroupStateNode {

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
        super(id, input, groupFields, aggregates, outputType, stateTtlMillis, updateBefore, miniBatch);
    }

    @Override
    public String kind() {
        return "GroupAggregate";
    }
}
