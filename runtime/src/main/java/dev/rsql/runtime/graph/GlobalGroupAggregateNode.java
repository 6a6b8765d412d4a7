package dev.rsql.runtime.graph;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Collectors;

/**
 * The second phase of a two-phase GROUP BY, after the exchange by the group fields: merges the partial accumulators a
 * {@link LocalGroupAggregateNode} emits into the group's state and emits the group's result as a
 * {@link GroupAggregateNode} does. Its input's first {@code groupCount} fields are the group fields.
 */
public final class GlobalGroupAggregateNode extends GraphNode {

    private final int groupCount;
    private final List<AggregateCall> aggregates;
    private final long stateTtlMillis;
    private final boolean updateBefore;
    private final MiniBatchSpec miniBatch;

    public GlobalGroupAggregateNode(String id, GraphNode input, int groupCount, List<AggregateCall> aggregates,
                                    RowType outputType, long stateTtlMillis, boolean updateBefore,
                                    MiniBatchSpec miniBatch) {
        super(id, List.of(input), outputType);
        if (outputType.size() != groupCount + aggregates.size()) {
            throw new IllegalArgumentException("aggregate output needs one field per group field and aggregate");
        }
        this.groupCount = groupCount;
        this.aggregates = List.copyOf(aggregates);
        this.stateTtlMillis = stateTtlMillis;
        this.updateBefore = updateBefore;
        this.miniBatch = miniBatch;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    /** The group fields: the input's first fields. */
    public int[] groupFields() {
        return IntStream.range(0, groupCount).toArray();
    }

    public List<AggregateCall> aggregates() {
        return aggregates;
    }

    public long stateTtlMillis() {
        return stateTtlMillis;
    }

    public boolean emitsUpdateBefore() {
        return updateBefore;
    }

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
        return "GlobalGroupAggregate";
    }

    @Override
    public String describe() {
        return "group by " + Fields.names(input().outputType(), groupFields()) + " "
                + aggregates.stream().map(AggregateCall::name).collect(Collectors.joining(", "))
                + (stateTtlMillis > 0 ? " state-ttl=" + stateTtlMillis + "ms" : "") + " " + miniBatch;
    }
}
