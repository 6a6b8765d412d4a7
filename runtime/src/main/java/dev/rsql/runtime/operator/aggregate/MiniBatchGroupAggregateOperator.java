package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.GroupAggregateNode;
import dev.rsql.runtime.operator.Output;

import java.util.List;

/**
 * GROUP BY without a window, folding its input in mini-batches: a group's rows of one batch are applied to its
 * accumulators with one state read and one write, and the group emits at most one change per batch (none when its
 * result did not change). The state, its layout and the TTL are the {@link GroupAggregateOperator}'s.
 */
public final class MiniBatchGroupAggregateOperator extends BatchedGroupState<Row> {

    public MiniBatchGroupAggregateOperator(GroupAggregateNode node, Output output) {
        super(node.miniBatch(), output, node.input().outputType(), node.groupFields(),
                new GroupAggregateOperator(node, output));
    }

    @Override
    void add(List<Row> rows, Row row) {
        rows.add(row);
    }

    @Override
    long apply(Object[] acc, long count, Row row) {
        return groups.fold(acc, count, row);
    }
}
