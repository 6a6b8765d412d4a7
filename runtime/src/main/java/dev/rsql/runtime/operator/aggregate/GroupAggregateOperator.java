package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.aggregate.Accumulators;
import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.GroupStateNode;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.TimerService;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

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
 * The rows of the most recently active groups and the most recently used view entries stay in the heap
 * ({@link KeyedStateCache}, {@code group.state-cache.keys} entries per state, 0 for none) and are written back when
 * evicted and before every checkpoint, so a record of an active group costs hash-map accesses, as in Flink's heap
 * state, while its state stays in RocksDB.
 */
public final class GroupAggregateOperator implements Operator {

    /** How a group changes: folded into its accumulators (fresh ones when its row count is 0), giving its new count. */
    @FunctionalInterface
    interface GroupChange {
        long applyTo(Object[] acc, long count);
    }

    private final String id;
    private final List<AggregateCall> calls;
    private final boolean readsUpdates;
    private final boolean updateBefore;
    private final Output output;
    private final int[] groupFields;
    private final RowSerializer keySerializer;
    private final long ttl;
    private Accumulators accumulators;
    private KeyedStateCache<Object[]> state;
    private final List<KeyedStateCache<Object>> viewCaches = new ArrayList<>();
    private TimerService timers;
    private OperatorContext context;
    private Object[] lastKey;
    private byte[] lastKeyBytes;

    /** The group state of {@code node}, reading updates when its input produces them. */
    public GroupAggregateOperator(GroupStateNode node, Output output) {
        this(node.id(), node.input().outputType(), node.groupFields(), node.aggregates(),
                node.input().producesUpdates(), node.stateTtlMillis(), node.emitsUpdateBefore(), output);
    }

    /** The group state of aggregation {@code id}, whose input rows have the group fields at {@code groupFields}. */
    GroupAggregateOperator(String id, RowType inputType, int[] groupFields, List<AggregateCall> calls,
                           boolean readsUpdates, long ttl, boolean updateBefore, Output output) {
        this.id = id;
        this.calls = calls;
        this.readsUpdates = readsUpdates;
        this.updateBefore = updateBefore;
        this.output = output;
        this.groupFields = groupFields;
        this.keySerializer = RowSerializer.forKeys(inputType, groupFields);
        this.ttl = ttl;
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        this.context = context;
        accumulators = new Accumulators(calls, readsUpdates);
        accumulators.open(context);
        // per state: the groups' rows and each view's entries; 0 caches nothing
        int capacity = KeyedStateCache.capacity(context, "group.state-cache.keys", 0);
        accumulators.keepViewsInState(id, (name, values) -> {
            KeyedStateCache<Object> cache = new KeyedStateCache<>(
                    context.stateBackend().valueState(id, name, values), capacity);
            viewCaches.add(cache);
            return cache.asState();
        });
        if (readsUpdates && !accumulators.canRetract()) {
            throw new IllegalStateException("aggregation " + id + " reads updates but not all its aggregates"
                    + " can take rows back");
        }
        // [row count, last update time, accumulators...]
        List<DataType> stored = new ArrayList<>();
        stored.add(DataType.of(DataType.Kind.BIGINT).notNull());
        stored.add(DataType.of(DataType.Kind.BIGINT).notNull());
        stored.addAll(accumulators.types());
        state = new KeyedStateCache<>(context.stateBackend().valueState(id, "groups", new RowSerializer(stored)),
                capacity);
        timers = context.stateBackend().timerService(id);
        if (ttl > 0) {
            requestNextTimer();
        }
    }

    /** The group fields of an input row. */
    Object[] key(Object[] in) {
        Object[] key = new Object[groupFields.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = in[groupFields[i]];
        }
        return key;
    }

    /** The serialized key; the last one is kept, since rows of one group often come in runs (a day, a channel). */
    byte[] keyBytes(Object[] key) {
        if (!Arrays.equals(key, lastKey)) {
            lastKey = key;
            lastKeyBytes = keySerializer.serialize(key);
        }
        return lastKeyBytes;
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] key = key(row.fields());
        update(key, keyBytes(key), (acc, count) -> fold(acc, count, row));
    }

    /** Applies one input row to a group, as {@link GroupChange}. */
    long fold(Object[] acc, long count, Row row) {
        if (row.kind().isAccumulate()) {
            if (count == 0) {
                System.arraycopy(accumulators.create(), 0, acc, 0, acc.length);
            }
            accumulators.accumulate(acc, row.fields());
            return count + 1;
        }
        if (count == 0) {
            return 0;  // taking back a row of a group that no longer exists (e.g. expired): nothing to do
        }
        accumulators.retract(acc, row.fields());
        return count - 1;
    }

    /** Merges a partial accumulator row {@code [row count, accumulators...]} into a group, as {@link GroupChange}. */
    long merge(Object[] acc, long count, Object[] partial) {
        if (count == 0) {
            System.arraycopy(accumulators.create(), 0, acc, 0, acc.length);
        }
        accumulators.merge(acc, Arrays.copyOfRange(partial, 1, partial.length));
        return count + (Long) partial[0];
    }

    /**
     * Reads a group's state once, applies the change, writes the state once and emits the group's change of result:
     * +I for a new group, -U/+U when it changed, -D when its row count fell to 0.
     */
    void update(Object[] key, byte[] keyBytes, GroupChange change) throws Exception {
        accumulators.bindViews(keyBytes, Namespaces.EMPTY);
        KeyedStateCache.Entry<Object[]> entry = state.get(keyBytes);
        Object[] stored = entry.value;
        long now = System.currentTimeMillis();
        if (stored != null && ttl > 0 && (Long) stored[1] + ttl <= now) {
            accumulators.clearViews();
            stored = null;  // expired, though its timer has not fired yet: the group starts afresh, as in Flink
        }
        long count = stored == null ? 0 : (Long) stored[0];
        Object[] acc = stored == null ? new Object[accumulators.types().size()]
                : Arrays.copyOfRange(stored, 2, stored.length);
        if (stored != null) {
            accumulators.attachViews(acc);
        }
        Object[] before = count == 0 ? null : result(key, acc);
        count = change.applyTo(acc, count);
        if (count == 0) {
            if (stored != null) {
                entry.value = null;
                entry.changed();
                accumulators.clearViews();
            }
            if (before != null) {
                output.emit(new Row(RowKind.DELETE, before));
            }
            return;
        }
        if (stored == null) {
            stored = new Object[2 + acc.length];
        }
        stored[0] = count;
        stored[1] = now;
        System.arraycopy(acc, 0, stored, 2, acc.length);
        accumulators.detachViews(stored, 2);
        entry.value = stored;
        entry.changed();
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
            if (updateBefore) {
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
            KeyedStateCache.Entry<Object[]> entry = state.get(key, ns);
            if (entry.value != null && (Long) entry.value[1] + ttl <= now) {
                entry.value = null;
                entry.changed();
                accumulators.bindViews(key, ns);
                accumulators.clearViews();
            }
        });
        requestNextTimer();
    }

    /** Writes the cached changes to state (before a checkpoint). */
    @Override
    public void flush() {
        state.flush();
        for (KeyedStateCache<Object> c : viewCaches) {
            c.flush();
        }
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
