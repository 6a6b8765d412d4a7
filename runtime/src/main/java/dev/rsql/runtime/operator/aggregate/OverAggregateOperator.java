package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.aggregate.Accumulators;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.OverAggregateNode;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.LongSerializer;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.TimerService;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs an {@link OverAggregateNode}. Keyed state, per partition key, one entry per row (never a serialized list):
 * <ul>
 * <li>{@code pending} (event time, and RANGE on processing time): each row waiting for the watermark (or for its
 * millisecond to pass), under (time, index among the rows of that time), and {@code pending-count} the number of rows
 * per time; one timer per key and time reads them back by point lookups, in arrival order;</li>
 * <li>{@code frame} (bounded windows): each row still inside the window. ROWS n keeps n + 1 slots, the row i in slot
 * i mod (n + 1), so the row a new one overwrites is the one leaving; RANGE keeps rows under (time, arrival), so the
 * oldest come first in a prefix scan and leave without reading the others;</li>
 * <li>{@code meta}: the number of rows added to the frame, the last time a row was processed (for the state TTL) and
 * the accumulators.</li>
 * </ul>
 * Rows leaving a bounded window are taken back out of the accumulators where that needs no other row (COUNT, SUM,
 * AVG, MIN or MAX losing a value that is not its extreme ...); otherwise (MIN or MAX losing its extreme, FIRST_VALUE,
 * a UDAF without retract) the accumulators are rebuilt from the frame's rows. Unbounded windows only accumulate, and
 * keep no rows once processed.
 */
public final class OverAggregateOperator implements Operator {

    private static final int ADDED = 0;
    private static final int LAST_ROW_AT = 1;
    private static final int ACC = 2;
    /** Namespace of the processing-time timer releasing the rows of one millisecond (RANGE on processing time). */
    private static final byte[] RELEASE = {1};

    private final OverAggregateNode node;
    private final Output output;
    private final int[] partitionFields;
    private final RowSerializer keySerializer;
    private final long ttl;
    private Accumulators accumulators;
    private KeyedValueState<Object[]> meta;
    private KeyedValueState<Object[]> pending;
    private KeyedValueState<Long> pendingCount;
    private KeyedValueState<Object[]> frame;
    private TimerService timers;
    private OperatorContext context;
    private LateRows lateRows;
    private long watermark = Long.MIN_VALUE;

    public OverAggregateOperator(OverAggregateNode node, Output output) {
        this.node = node;
        this.output = output;
        this.partitionFields = node.partitionFields();
        this.keySerializer = RowSerializer.forKeys(node.input().outputType(), partitionFields);
        this.ttl = node.stateTtlMillis();
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        this.context = context;
        accumulators = new Accumulators(node.aggregates());
        accumulators.open(context);
        List<DataType> stored = new ArrayList<>();
        stored.add(DataType.of(DataType.Kind.BIGINT).notNull());
        stored.add(DataType.of(DataType.Kind.BIGINT).notNull());
        stored.addAll(accumulators.types());
        meta = context.stateBackend().valueState(node.id(), "meta", new RowSerializer(stored));
        RowSerializer rows = RowSerializer.of(node.input().outputType());
        pending = context.stateBackend().valueState(node.id(), "pending", rows);
        pendingCount = context.stateBackend().valueState(node.id(), "pending-count", LongSerializer.INSTANCE);
        frame = context.stateBackend().valueState(node.id(), "frame", rows);
        timers = context.stateBackend().timerService(node.id());
        watermark = context.restoredWatermark();
        lateRows = new LateRows(node.id(), node.input().outputType(), node.lateDataTable(),
                node.lateDataTable() == null ? null : context.sideOutput(node.lateDataTable()));
        requestNextProcessingTime();
    }

    /** Two longs, each in numeric byte order: a row's place as (time, index). */
    private static byte[] namespace(long time, long index) {
        byte[] ns = new byte[16];
        Namespaces.putOrderedLong(ns, 0, time);
        Namespaces.putOrderedLong(ns, 8, index);
        return ns;
    }

    private static byte[] namespace(long value) {
        byte[] ns = new byte[8];
        Namespaces.putOrderedLong(ns, 0, value);
        return ns;
    }

    private static long timeOf(byte[] namespace) {
        return Namespaces.getOrderedLong(namespace, 0);
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        long now = System.currentTimeMillis();
        Object[] key = new Object[partitionFields.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = in[partitionFields[i]];
        }
        byte[] keyBytes = keySerializer.serialize(key);
        if (node.eventTime() || !node.rows()) {
            long time = now;
            if (node.eventTime()) {
                Object t = in[node.timeField()];
                if (t == null || (Long) t <= watermark) {
                    lateRows.late(in, watermark);
                    return;
                }
                time = (Long) t;
            }
            byte[] timeNs = namespace(time);
            Long count = pendingCount.get(keyBytes, timeNs);
            long index = count == null ? 0 : count;
            pending.put(keyBytes, namespace(time, index), in);
            pendingCount.put(keyBytes, timeNs, index + 1);
            if (count == null && node.eventTime()) {
                timers.registerEventTimeTimer(time, keyBytes, Namespaces.EMPTY);
            } else if (count == null) {
                timers.registerProcessingTimeTimer(time + 1, keyBytes, RELEASE);
                context.requestProcessingTime(time + 1);
            }
        } else {
            List<Object[]> rows = new ArrayList<>(1);
            rows.add(in);
            aggregate(keyBytes, current(keyBytes, now), rows, now);
        }
    }

    /** Timers are coalesced to a tenth of the TTL, so a busy key holds few of them. */
    private void registerCleanup(byte[] keyBytes, long now) {
        long bucket = Math.max(1, ttl / 10);
        long at = (now + ttl + bucket - 1) / bucket * bucket;
        timers.registerProcessingTimeTimer(at, keyBytes, Namespaces.EMPTY);
        context.requestProcessingTime(at);
    }

    /**
     * The key's stored state, marked as used now; fresh when there is none or it expired (its frame is then dropped).
     */
    private Object[] current(byte[] keyBytes, long now) {
        Object[] stored = meta.get(keyBytes, Namespaces.EMPTY);
        if (stored != null && ttl > 0 && (Long) stored[LAST_ROW_AT] + ttl <= now) {
            clearFrame(keyBytes);
            stored = null;
        }
        if (stored == null) {
            stored = new Object[ACC + accumulators.types().size()];
            stored[ADDED] = 0L;
            Object[] acc = accumulators.create();
            System.arraycopy(acc, 0, stored, ACC, acc.length);
        }
        stored[LAST_ROW_AT] = now;
        return stored;
    }

    private void clearFrame(byte[] keyBytes) {
        if (!node.bounded()) {
            return;
        }
        try (CloseableIterator<StateEntry<Object[]>> it = frame.entries(keyBytes)) {
            while (it.hasNext()) {
                frame.remove(keyBytes, it.next().namespace());
            }
        }
    }

    /**
     * Processes the rows of one time of one key (in arrival order): adds them to the window, takes out the rows that
     * leave it, emits each row with its results, and stores the key's state.
     */
    private void aggregate(byte[] keyBytes, Object[] stored, List<Object[]> rows, long time) throws Exception {
        Object[] acc = new Object[stored.length - ACC];
        System.arraycopy(stored, ACC, acc, 0, acc.length);
        long added = (Long) stored[ADDED];
        if (!node.bounded()) {
            for (Object[] r : rows) {
                accumulators.accumulate(acc, r);
                if (node.rows()) {
                    emit(r, acc);
                }
            }
        } else if (node.rows()) {
            long slots = node.preceding() + 1;
            for (Object[] r : rows) {
                byte[] slot = namespace(added % slots);
                Object[] leaving = added >= slots ? frame.get(keyBytes, slot) : null;
                frame.put(keyBytes, slot, r);
                added++;
                if (leaving != null && !accumulators.tryRetract(acc, leaving)) {
                    acc = rebuild(keyBytes);
                } else {
                    accumulators.accumulate(acc, r);
                }
                emit(r, acc);
            }
        } else {
            boolean retracted = true;
            try (CloseableIterator<StateEntry<Object[]>> it = frame.entries(keyBytes)) {
                while (it.hasNext()) {
                    StateEntry<Object[]> e = it.next();
                    if (time - timeOf(e.namespace()) <= node.preceding()) {
                        break;
                    }
                    frame.remove(keyBytes, e.namespace());
                    retracted = retracted && accumulators.tryRetract(acc, e.value());
                }
            }
            for (Object[] r : rows) {
                frame.put(keyBytes, namespace(time, added++), r);
                if (retracted) {
                    accumulators.accumulate(acc, r);
                }
            }
            if (!retracted) {
                acc = rebuild(keyBytes);
            }
        }
        if (!node.rows()) {
            // RANGE: rows of one time are peers, with one result.
            for (Object[] r : rows) {
                emit(r, acc);
            }
        }
        stored[ADDED] = added;
        System.arraycopy(acc, 0, stored, ACC, acc.length);
        meta.put(keyBytes, Namespaces.EMPTY, stored);
        if (ttl > 0) {
            registerCleanup(keyBytes, (Long) stored[LAST_ROW_AT]);
        }
    }

    /** The accumulators of the rows now in the key's frame. */
    private Object[] rebuild(byte[] keyBytes) {
        Object[] acc = accumulators.create();
        try (CloseableIterator<StateEntry<Object[]>> it = frame.entries(keyBytes)) {
            while (it.hasNext()) {
                accumulators.accumulate(acc, it.next().value());
            }
        }
        return acc;
    }

    private void emit(Object[] in, Object[] acc) throws Exception {
        Object[] out = new Object[in.length + accumulators.size()];
        System.arraycopy(in, 0, out, 0, in.length);
        accumulators.values(acc, out, in.length);
        output.emit(Row.insert(out));
    }

    @Override
    public void processWatermark(long newWatermark) throws Exception {
        if (newWatermark <= watermark) {
            return;
        }
        watermark = newWatermark;
        if (node.eventTime()) {
            timers.fireEventTimeTimers(newWatermark, (time, keyBytes, ns) -> release(time, keyBytes));
        }
        output.emitWatermark(newWatermark);
    }

    /**
     * The watermark (or, for RANGE on processing time, the clock) passed {@code time}: the key's rows of that time
     * leave {@code pending}, in arrival order, as peers.
     */
    private void release(long time, byte[] keyBytes) throws Exception {
        byte[] timeNs = namespace(time);
        Long count = pendingCount.get(keyBytes, timeNs);
        if (count == null) {
            return;
        }
        pendingCount.remove(keyBytes, timeNs);
        List<Object[]> rows = new ArrayList<>((int) (long) count);
        for (long i = 0; i < count; i++) {
            byte[] ns = namespace(time, i);
            rows.add(pending.get(keyBytes, ns));
            pending.remove(keyBytes, ns);
        }
        aggregate(keyBytes, current(keyBytes, System.currentTimeMillis()), rows, time);
    }

    /**
     * Rows of a millisecond that has passed are released (RANGE on processing time); and, with a state TTL, a key
     * without rows for that long, and none waiting, is dropped.
     */
    @Override
    public void onProcessingTime(long now) throws Exception {
        timers.fireProcessingTimeTimers(now, (time, keyBytes, ns) -> {
            if (ns.length == RELEASE.length) {
                release(time - 1, keyBytes);
                return;
            }
            Object[] stored = meta.get(keyBytes, Namespaces.EMPTY);
            if (stored == null || (Long) stored[LAST_ROW_AT] + ttl > now) {
                return;
            }
            try (CloseableIterator<StateEntry<Long>> it = pendingCount.entries(keyBytes)) {
                if (it.hasNext()) {
                    registerCleanup(keyBytes, now);  // idle, but rows still wait for the watermark
                    return;
                }
            }
            meta.remove(keyBytes, Namespaces.EMPTY);
            clearFrame(keyBytes);
        });
        requestNextProcessingTime();
    }

    /** Rows of processing-time RANGE windows still held when a bounded input ends are released now. */
    @Override
    public void endOfInput() throws Exception {
        if (!node.eventTime() && !node.rows()) {
            timers.fireProcessingTimeTimers(Long.MAX_VALUE, (time, keyBytes, ns) -> {
                if (ns.length == RELEASE.length) {
                    release(time - 1, keyBytes);
                }
            });
        }
    }

    private void requestNextProcessingTime() {
        long next = timers.nextProcessingTime();
        if (next != Long.MAX_VALUE) {
            context.requestProcessingTime(next);
        }
    }

    @Override
    public void flush() throws Exception {
        lateRows.flush();
    }

    @Override
    public void close() throws Exception {
        try {
            lateRows.close();
        } finally {
            accumulators.close();
        }
    }

    /** Rows that came at or behind the watermark. */
    public long lateRowCount() {
        return lateRows == null ? 0 : lateRows.count();
    }

    @Override
    public long lateRecords() {
        return lateRowCount();
    }
}
