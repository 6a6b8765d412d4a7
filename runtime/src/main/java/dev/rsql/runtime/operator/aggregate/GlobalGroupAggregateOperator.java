package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.GlobalGroupAggregateNode;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The global phase of a two-phase GROUP BY: buffers the partial accumulators of a mini-batch per group and merges
 * them into the group's state with one read and one write, emitting at most one change per group and batch. The
 * state, its layout and the TTL are the {@link GroupAggregateOperator}'s.
 */
public final class GlobalGroupAggregateOperator extends MiniBatchOperator<List<Object[]>> {

    private final GroupAggregateOperator groups;
    private final int groupCount;

    public GlobalGroupAggregateOperator(GlobalGroupAggregateNode node, Output output) {
        super(node.miniBatch(), output, node.input().outputType(), node.groupFields());
        this.groups = new GroupAggregateOperator(node.id(), node.input().outputType(), node.groupFields(),
                node.aggregates(), false, node.stateTtlMillis(), node.emitsUpdateBefore(), output);
        this.groupCount = node.groupFields().length;
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        super.open(context);
        groups.open(context);
    }

    @Override
    List<Object[]> newValue() {
        return new ArrayList<>(2);
    }

    @Override
    void add(List<Object[]> partials, Row row) {
        // [group fields..., row count, accumulators...] -> [row count, accumulators...]
        Object[] in = row.fields();
        partials.add(Arrays.copyOfRange(in, groupCount, in.length));
    }

    @Override
    void fold(Object[] key, byte[] keyBytes, List<Object[]> partials) throws Exception {
        groups.update(key, keyBytes, (acc, count) -> {
            for (Object[] p : partials) {
                count = groups.merge(acc, count, p);
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
