package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.MiniBatchSpec;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.types.RowType;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;

/**
 * An aggregation that buffers its input per group key in the heap and folds each group once per batch, in the order
 * groups first appeared in it. A batch is folded when its first row has waited the allowed latency (a processing-time
 * wake-up), when it holds the maximum number of rows, before a checkpoint (nothing buffered is left out of one, so
 * exactly-once holds) and at the end of the input. A watermark reaching a non-empty batch waits for it to be folded
 * (results go out before it); folding on every watermark would undo the batching, as sources send them often.
 *
 * @param <V> what is buffered per group
 */
abstract class MiniBatchOperator<V> implements Operator {

    /** A group's key and what the batch holds for it. */
    private static final class Group<V> {
        final Object[] key;
        final byte[] keyBytes;
        final V value;

        Group(Object[] key, byte[] keyBytes, V value) {
            this.key = key;
            this.keyBytes = keyBytes;
            this.value = value;
        }
    }

    private final MiniBatchSpec spec;
    private final Output output;
    private final int[] groupFields;
    private final RowSerializer keySerializer;
    private final LinkedHashMap<ByteBuffer, Group<V>> groups = new LinkedHashMap<>();
    private long rows;
    private long deadline = Long.MAX_VALUE;
    private long heldWatermark = Long.MIN_VALUE;
    private OperatorContext context;

    MiniBatchOperator(MiniBatchSpec spec, Output output, RowType inputType, int[] groupFields) {
        this.spec = spec;
        this.output = output;
        this.groupFields = groupFields;
        this.keySerializer = RowSerializer.forKeys(inputType, groupFields);
    }

    /** An empty buffer for a group. */
    abstract V newValue();

    /** Adds an input row to its group's buffer. */
    abstract void add(V value, Row row);

    /** Folds a group's buffer (into state, or downstream). */
    abstract void fold(Object[] key, byte[] keyBytes, V value) throws Exception;

    @Override
    public void open(OperatorContext context) throws Exception {
        this.context = context;
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        Object[] key = new Object[groupFields.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = in[groupFields[i]];
        }
        byte[] keyBytes = keySerializer.serialize(key);
        ByteBuffer k = ByteBuffer.wrap(keyBytes);
        Group<V> group = groups.get(k);
        if (group == null) {
            group = new Group<>(key, keyBytes, newValue());
            groups.put(k, group);
        }
        add(group.value, row);
        if (rows++ == 0) {
            deadline = System.currentTimeMillis() + spec.latencyMillis();
            context.requestProcessingTime(deadline);
        }
        if (rows >= spec.maxRows()) {
            foldBatch();
        }
    }

    /** Folds every buffered group, then starts an empty batch. */
    private void foldBatch() throws Exception {
        if (rows == 0) {
            return;
        }
        for (Group<V> g : groups.values()) {
            fold(g.key, g.keyBytes, g.value);
        }
        groups.clear();
        rows = 0;
        deadline = Long.MAX_VALUE;
        if (heldWatermark != Long.MIN_VALUE) {
            long w = heldWatermark;
            heldWatermark = Long.MIN_VALUE;
            output.emitWatermark(w);
        }
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        if (rows == 0) {
            output.emitWatermark(watermark);
        } else {
            heldWatermark = Math.max(heldWatermark, watermark);
        }
    }

    @Override
    public void onProcessingTime(long now) throws Exception {
        if (now >= deadline) {
            foldBatch();
        } else if (rows > 0) {
            context.requestProcessingTime(deadline);  // woken for another operator: ask again for this batch
        }
    }

    @Override
    public void endOfInput() throws Exception {
        foldBatch();
    }

    @Override
    public void flush() throws Exception {
        foldBatch();
    }
}
