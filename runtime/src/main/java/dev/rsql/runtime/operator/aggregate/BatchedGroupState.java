package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.graph.MiniBatchSpec;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.types.RowType;

import java.util.ArrayList;
import java.util.List;

/**
 * A mini-batch aggregation keeping its groups in the {@link GroupAggregateOperator}'s state (layout and TTL): a
 * group's buffered elements of a batch are applied with one state read and one write, and the group emits at most
 * one change per batch.
 *
 * @param <E> what is buffered per input row: the row, or a partial accumulator
 */
abstract class BatchedGroupState<E> extends MiniBatchOperator<List<E>> {

    final GroupAggregateOperator groups;

    BatchedGroupState(MiniBatchSpec spec, Output output, RowType inputType, int[] groupFields,
                      GroupAggregateOperator groups) {
        super(spec, output, inputType, groupFields);
        this.groups = groups;
    }

    /** Applies one buffered element to a group's accumulators, as {@link GroupAggregateOperator.GroupChange}. */
    abstract long apply(Object[] acc, long count, E element);

    @Override
    public void open(OperatorContext context) throws Exception {
        super.open(context);
        groups.open(context);
    }

    @Override
    List<E> newValue() {
        return new ArrayList<>(2);
    }

    @Override
    void fold(Object[] key, byte[] keyBytes, List<E> elements) throws Exception {
        groups.update(key, keyBytes, (acc, count) -> {
            for (E e : elements) {
                count = apply(acc, count, e);
            }
            return count;
        });
    }

    @Override
    public void onProcessingTime(long now) throws Exception {
        super.onProcessingTime(now);
        groups.onProcessingTime(now);
    }

    /** Folds the batch, then writes the groups' cached changes to state (before a checkpoint). */
    @Override
    public void flush() throws Exception {
        super.flush();
        groups.flush();
    }

    @Override
    public void close() throws Exception {
        groups.close();
    }
}
