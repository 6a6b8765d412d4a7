package dev.rsql.runtime.operator.rank;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.DeduplicateNode;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.TimerService;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.util.Arrays;

/**
 * Runs a {@link DeduplicateNode}: per key, the kept row in keyed state, with the time it was last written (for the
 * state TTL). Keep-first on processing time stores the first row and drops the rest. Rows are decided as they arrive,
 * not when the watermark passes (as in Flink), so an event-time deduplication emits updates when rows come out of
 * order.
 */
public final class DeduplicateOperator implements Operator {

    private final DeduplicateNode node;
    private final Output output;
    private final int[] keyFields;
    private final int timeField;
    private final RowSerializer keySerializer;
    private final long ttl;
    private KeyedValueState<Object[]> kept;
    private TimerService timers;
    private OperatorContext context;

    public DeduplicateOperator(DeduplicateNode node, Output output) {
        this.node = node;
        this.output = output;
        this.keyFields = node.keyFields();
        this.timeField = node.timeField();
        this.keySerializer = RowSerializer.forKeys(node.outputType(), keyFields);
        this.ttl = node.stateTtlMillis();
    }

    @Override
    public void open(OperatorContext context) {
        this.context = context;
        RowType.Builder stored = RowType.builder();
        RowType type = node.outputType();
        for (int i = 0; i < type.size(); i++) {
            stored.field(type.name(i), type.type(i));
        }
        stored.field("$written", DataType.of(DataType.Kind.BIGINT).notNull());
        kept = context.stateBackend().valueState(node.id(), "kept", RowSerializer.of(stored.build()));
        timers = context.stateBackend().timerService(node.id());
        if (ttl > 0) {
            requestNextTimer();
        }
    }

    @Override
    public void process(Row row) throws Exception {
        if (!row.kind().isAccumulate()) {
            throw new IllegalStateException("deduplication " + node.id() + " received a retraction: " + row);
        }
        Object[] in = row.fields();
        Object[] key = new Object[keyFields.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = in[keyFields[i]];
        }
        byte[] keyBytes = keySerializer.serialize(key);
        long now = System.currentTimeMillis();
        Object[] stored = kept.get(keyBytes, Namespaces.EMPTY);
        if (stored != null && ttl > 0 && (Long) stored[in.length] + ttl <= now) {
            stored = null;  // expired, though its timer has not fired yet: the key starts afresh, as in Flink
        }
        Object[] previous = stored == null ? null : Arrays.copyOf(stored, in.length);
        if (previous != null && !replaces(in, previous)) {
            return;
        }
        Object[] next = Arrays.copyOf(in, in.length + 1);
        next[in.length] = now;
        kept.put(keyBytes, Namespaces.EMPTY, next);
        if (ttl > 0) {
            // Timers are coalesced to a tenth of the TTL, so a busy key holds few of them.
            long bucket = Math.max(1, ttl / 10);
            long at = (now + ttl + bucket - 1) / bucket * bucket;
            timers.registerProcessingTimeTimer(at, keyBytes, Namespaces.EMPTY);
            context.requestProcessingTime(at);
        }
        if (previous == null) {
            output.emit(new Row(RowKind.INSERT, in));
            return;
        }
        if (node.emitsUpdateBefore()) {
            output.emit(new Row(RowKind.UPDATE_BEFORE, previous));
        }
        output.emit(new Row(RowKind.UPDATE_AFTER, in));
    }

    /** Whether a new row takes the place of the kept one. */
    private boolean replaces(Object[] in, Object[] previous) {
        if (!node.eventTime()) {
            return node.keepLast();
        }
        Long t = (Long) in[timeField];
        Long p = (Long) previous[timeField];
        if (t == null || p == null) {
            return node.keepLast();
        }
        return node.keepLast() ? t >= p : t < p;
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        output.emitWatermark(watermark);
    }

    @Override
    public void onProcessingTime(long now) throws Exception {
        if (ttl <= 0) {
            return;
        }
        timers.fireProcessingTimeTimers(now, (time, key, ns) -> {
            Object[] stored = kept.get(key, ns);
            if (stored != null && (Long) stored[stored.length - 1] + ttl <= now) {
                kept.remove(key, ns);
            }
        });
        requestNextTimer();
    }

    private void requestNextTimer() {
        long next = timers.nextProcessingTime();
        if (next != Long.MAX_VALUE) {
            context.requestProcessingTime(next);
        }
    }
}
