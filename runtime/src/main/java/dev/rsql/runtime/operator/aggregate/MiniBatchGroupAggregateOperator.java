package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.GroupAggregateNode;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;

import java.util.ArrayList;
import java.util.List;

/**
 * GROUP BY without a window, folding its input in mini-batches: a group's rows of one batch are applied to its
 * accumulators with one state read and one write, and the group emits at most one change per batch (none when its
 * result did not change). The state, its layout and the TTL are the {@link GroupAggregateOperator}'s.
 */
public final class MiniBatchGroupAggregateOperator extends MiniBatchOperator<List<Row>> {

    private final GroupAggregateOperator groups;

    public MiniBatchGroupAggregateOperator(GroupAggregateNode node, Output output) {
        super(node.miniBatch(), output, node.input().outputType(), node.groupFields());
        this.groups = new GroupAggregateOperator(node, output);
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        super.open(context);
        groups.open(context);
    }

    @Override
    List<Row> newValue() {
        return new ArrayList<>(2);
    }

    @Override
    void add(List<Row> rows, Row row) {
        rows.add(row);
    }

    @Override
    void fold(Object[] key, byte[] keyBytes, List<Row> rows) throws Exception {
        groups.update(key, keyBytes, (acc, count) -> {
            for (Row r : rows) {
                count = groups.fold(acc, count, r);
            }
            return count;
        });
    }

    @Override
    public void onProcessingTime(long now) throws Exception {
        super.onProcessingTime(now);
        groups.onProcessingTime(now);
    }

    @Override
    public void close() throws Exception {
        groups.close();
    }
}
