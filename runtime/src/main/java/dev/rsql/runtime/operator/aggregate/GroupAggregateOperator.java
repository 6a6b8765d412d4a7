package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.aggregate.Accumulators;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.GroupAggregateNode;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.TimerService;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * GROUP BY without a window. Keeps per group the number of rows and the accumulators in keyed state, and emits the
 * group's result as a changelog: +I for a new group, -U/+U when the result changes, -D when its last row is taken
 * back. With a state TTL, a group untouched for that long is dropped (silently, as in Flink) by a processing-time
 * timer, and is treated as gone from then on even before the timer fires. Collections inside accumulators (DISTINCT
 * values, value lists) are kept as one state entry per element beside the group's row
 * ({@link Accumulators#keepViewsInState}), so a record reads and writes what it changes, not the whole collection.
 */
public final class GroupAggregateOperator implements Operator {

    private final GroupAggregateNode node;
    private final Output output;
    private final int[] groupFields;
    private final RowSerializer keySerializer;
    private final long ttl;
    private Accumulators accumulators;
    private KeyedValueState<Object[]> state;
    private TimerService timers;
    private OperatorContext context;

    public GroupAggregateOperator(GroupAggregateNode node, Output output) {
        this.node = node;
        this.output = output;
        this.groupFields = node.groupFields();
        this.keySerializer = RowSerializer.forKeys(node.input().outputType(), groupFields);
        this.ttl = node.stateTtlMillis();
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        this.context = context;
        accumulators = new Accumulators(node.aggregates());
        accumulators.open(context);
        accumulators.keepViewsInState(context.stateBackend(), node.id());
        if (node.input().producesUpdates() && !accumulators.canRetract()) {
            throw new IllegalStateException("aggregation " + node.id() + " reads updates but not all its aggregates"
                    + " can take rows back");
        }
        // [row count, last update time, accumulators...]
        List<DataType> stored = new ArrayList<>();
        stored.add(DataType.of(DataType.Kind.BIGINT).notNull());
        stored.add(DataType.of(DataType.Kind.BIGINT).notNull());
        stored.addAll(accumulators.types());
        state = context.stateBackend().valueState(node.id(), "groups", new RowSerializer(stored));
        timers = context.stateBackend().timerService(node.id());
        if (ttl > 0) {
            requestNextTimer();
        }
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        Object[] key = new Object[groupFields.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = in[groupFields[i]];
        }
        byte[] keyBytes = keySerializer.serialize(key);
        accumulators.bindViews(keyBytes, Namespaces.EMPTY);
        Object[] stored = state.get(keyBytes, Namespaces.EMPTY);
        long now = System.currentTimeMillis();
        if (stored != null && ttl > 0 && (Long) stored[1] + ttl <= now) {
            accumulators.clearViews();
            stored = null;  // expired, though its timer has not fired yet: the group starts afresh, as in Flink
        }
        boolean accumulate = row.kind().isAccumulate();
        if (stored == null) {
            if (!accumulate) {
                return;  // taking back a row of a group that no longer exists (e.g. expired): nothing to do
            }
            stored = new Object[2 + accumulators.types().size()];
            stored[0] = 0L;
            Object[] fresh = accumulators.create();
            System.arraycopy(fresh, 0, stored, 2, fresh.length);
        }
        long count = (Long) stored[0];
        Object[] acc = Arrays.copyOfRange(stored, 2, stored.length);
        accumulators.attachViews(acc);
        Object[] before = count == 0 ? null : result(key, acc);
        if (accumulate) {
            accumulators.accumulate(acc, in);
            count++;
        } else {
            accumulators.retract(acc, in);
            count--;
        }
        if (count == 0) {
            state.remove(keyBytes, Namespaces.EMPTY);
            accumulators.clearViews();
            if (before != null) {
                output.emit(new Row(RowKind.DELETE, before));
            }
            return;
        }
        stored[0] = count;
        stored[1] = now;
        System.arraycopy(acc, 0, stored, 2, acc.length);
        accumulators.detachViews(stored, 2);
        state.put(keyBytes, Namespaces.EMPTY, stored);
        if (ttl > 0) {
            // Timers are coalesced to a tenth of the TTL, so a busy group holds few of them.
            long bucket = Math.max(1, ttl / 10);
            long at = (now + ttl + bucket - 1) / bucket * bucket;
            timers.registerProcessingTimeTimer(at, keyBytes, Namespaces.EMPTY);
            context.requestProcessingTime(at);
        }
        Object[] after = result(key, acc);
        if (before == null) {
            output.emit(new Row(RowKind.INSERT, after));
        } else if (!Arrays.deepEquals(before, after)) {
            if (node.emitsUpdateBefore()) {
                output.emit(new Row(RowKind.UPDATE_BEFORE, before));
            }
            output.emit(new Row(RowKind.UPDATE_AFTER, after));
        }
    }

    private Object[] result(Object[] key, Object[] acc) {
        Object[] out = new Object[key.length + accumulators.size()];
        System.arraycopy(key, 0, out, 0, key.length);
        accumulators.values(acc, out, key.length);
        return out;
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
            Object[] stored = state.get(key, ns);
            if (stored != null && (Long) stored[1] + ttl <= now) {
                state.remove(key, ns);
                accumulators.bindViews(key, ns);
                accumulators.clearViews();
            }
        });
        requestNextTimer();
    }

    @Override
    public void close() throws Exception {
        accumulators.close();
    }

    private void requestNextTimer() {
        long next = timers.nextProcessingTime();
        if (next != Long.MAX_VALUE) {
            context.requestProcessingTime(next);
        }
    }
}
