package dev.rsql.runtime.graph;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.stream.IntStream;

/**
 * The second phase of a two-phase GROUP BY, after the exchange by the group fields: merges the partial accumulators a
 * {@link LocalGroupAggregateNode} emits into the group's state and emits the group's result as a
 * {@link GroupAggregateNode} does. Its input's first {@code groupCount} fields are the group fields.
 */
public final class GlobalGroupAggregateNode extends GroupStateNode {

    public GlobalGroupAggregateNode(String id, GraphNode input, int groupCount, List<AggregateCall> aggregates,
                                    RowType outputType, long stateTtlMillis, boolean updateBefore,
                                    MiniBatchSpec miniBatch) {
        super(id, input, IntStream.range(0, groupCount).toArray(), aggregates, outputType, stateTtlMillis,
                updateBefore, miniBatch);
    }

    @Override
    public String kind() {
        return "GlobalGroupAggregate";
    }
}
