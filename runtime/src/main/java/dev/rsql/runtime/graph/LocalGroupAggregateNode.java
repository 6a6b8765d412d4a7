package dev.rsql.runtime.graph;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.aggregate.Accumulators;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The first phase of a two-phase GROUP BY, before the exchange: folds each mini-batch of its (insert-only) input per
 * group into fresh accumulators and emits them as one row per group and batch, without state. Output: the group
 * fields, the batch's row count, then the accumulator fields ({@link Accumulators#types}); a
 * {@link GlobalGroupAggregateNode} after the exchange merges them.
 */
public final class LocalGroupAggregateNode extends GraphNode {

    private final int[] groupFields;
    private final List<AggregateCall> aggregates;
    private final MiniBatchSpec miniBatch;

    public LocalGroupAggregateNode(String id, GraphNode input, int[] groupFields, List<AggregateCall> aggregates,
                                   MiniBatchSpec miniBatch) {
        super(id, List.of(input), partialType(input.outputType(), groupFields, aggregates));
        this.groupFields = groupFields.clone();
        this.aggregates = List.copyOf(aggregates);
        this.miniBatch = miniBatch;
    }

    private static RowType partialType(RowType input, int[] groupFields, List<AggregateCall> aggregates) {
        RowType.Builder b = RowType.builder();
        for (int g : groupFields) {
            b.field(input.name(g), input.type(g));
        }
        b.field("$count", DataType.of(DataType.Kind.BIGINT).notNull());
        List<DataType> acc = new Accumulators(aggregates).types();
        for (int i = 0; i < acc.size(); i++) {
            b.field("$acc" + i, acc.get(i));
        }
        return b.build();
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

    public MiniBatchSpec miniBatch() {
        return miniBatch;
    }

    @Override
    public String kind() {
        return "LocalGroupAggregate";
    }

    @Override
    public String describe() {
        return "group by " + Fields.names(input().outputType(), groupFields) + " "
                + aggregates.stream().map(AggregateCall::name).collect(Collectors.joining(", ")) + " " + miniBatch;
    }
}
