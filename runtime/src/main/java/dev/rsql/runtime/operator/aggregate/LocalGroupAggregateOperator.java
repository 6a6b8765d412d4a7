package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.aggregate.Accumulators;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.LocalGroupAggregateNode;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;

/**
 * The local phase of a two-phase GROUP BY, before the exchange: folds each mini-batch per group into fresh
 * accumulators in the heap and emits one partial row per group and batch ({@link LocalGroupAggregateNode}'s layout).
 * Keeps no state: a checkpoint first sends the batch on.
 */
public final class LocalGroupAggregateOperator extends MiniBatchOperator<LocalGroupAggregateOperator.Partial> {

    /** A group's partial aggregate of one batch. */
    static final class Partial {
        long count;
        final Object[] acc;

        Partial(Object[] acc) {
            this.acc = acc;
        }
    }

    private final LocalGroupAggregateNode node;
    private final Output output;
    private Accumulators accumulators;

    public LocalGroupAggregateOperator(LocalGroupAggregateNode node, Output output) {
        super(node.miniBatch(), output, node.input().outputType(), node.groupFields());
        this.node = node;
        this.output = output;
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        super.open(context);
        accumulators = new Accumulators(node.aggregates());
        accumulators.open(context);
    }

    @Override
    Partial newValue() {
        return new Partial(accumulators.create());
    }

    @Override
    void add(Partial partial, Row row) {
        if (!row.kind().isAccumulate()) {
            throw new IllegalStateException("local aggregation " + node.id() + " reads inserts only, got " + row);
        }
        accumulators.accumulate(partial.acc, row.fields());
        partial.count++;
    }

    @Override
    void fold(Object[] key, byte[] keyBytes, Partial partial) throws Exception {
        Object[] out = new Object[key.length + 1 + partial.acc.length];
        System.arraycopy(key, 0, out, 0, key.length);
        out[key.length] = partial.count;
        System.arraycopy(partial.acc, 0, out, key.length + 1, partial.acc.length);
        output.emit(new Row(RowKind.INSERT, out));
    }

    @Override
    public void close() throws Exception {
        accumulators.close();
    }
}
