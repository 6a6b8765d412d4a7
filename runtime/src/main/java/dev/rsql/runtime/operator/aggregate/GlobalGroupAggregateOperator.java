package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.GlobalGroupAggregateNode;
import dev.rsql.runtime.operator.Output;

import java.util.Arrays;
import java.util.List;

/**
 * The global phase of a two-phase GROUP BY: buffers the partial accumulators of a mini-batch per group and merges
 * them into the group's state with one read and one write, emitting at most one change per group and batch. The
 * state, its layout and the TTL are the {@link GroupAggregateOperator}'s.
 */
public final class GlobalGroupAggregateOperator extends BatchedGroupState<Object[]> {

    private final int groupCount;

    public GlobalGroupAggregateOperator(GlobalGroupAggregateNode node, Output output) {
        super(node.miniBatch(), output, node.input().outputType(), node.groupFields(),
                new GroupAggregateOperator(node, output));
        this.groupCount = node.groupFields().length;
    }

    @Override
    void add(List<Object[]> partials, Row row) {
        // [group fields..., row count, accumulators...] -> [row count, accumulators...]
        Object[] in = row.fields();
        partials.add(Arrays.copyOfRange(in, groupCount, in.length));
    }

    @Override
    long apply(Object[] acc, long count, Object[] partial) {
        return groups.merge(acc, count, partial);
    }
}
