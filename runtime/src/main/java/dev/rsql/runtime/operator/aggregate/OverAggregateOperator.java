package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.aggregate.Accumulators;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.OverAggregateNode;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.TimerService;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs an {@link OverAggregateNode}. Keyed state, per partition key:
 * <ul>
 * <li>{@code pending} (event time): each row waiting for the watermark, one entry per row under (time, sequence),
 * with one event-time timer per key and time; when it fires, the rows of that time are processed in arrival
 * order;</li>
 * <li>{@code frame} (bounded windows): each row still inside the window, one entry per row under (time, sequence),
 * so that the oldest ones are the first of a prefix scan and leave the window without reading the others;</li>
 * <li>{@code meta}: the next sequence number, the number of rows in the frame, the last time a row came (for the
 * state TTL) and the accumulators.</li>
 * </ul>
 * Rows leaving a bounded window are taken back out of the accumulators where that needs no other row (COUNT, SUM,
 * AVG, MIN or MAX losing a value that is not its extreme ...); otherwise (MIN or MAX losing its extreme, FIRST_VALUE,
 * a UDAF without retract) the accumulators are rebuilt from the frame's rows. Unbounded windows only accumulate, and
 * keep no rows once processed.
 */
public final class OverAggregateOperator implements Operator {

    private static final int SEQ = 0;
    private static final int FRAME_ROWS = 1;
    private static final int LAST_ROW_AT = 2;
    private static final int ACC = 3;

    private final OverAggregateNode node;
    private final Output output;
    private final int[] partitionFields;
    private final RowSerializer keySerializer;
    private final long ttl;
    private Accumulators accumulators;
    private KeyedValueState<Object[]> meta;
    private KeyedValueState<Object[]> pending;
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
        stored.add(DataType.of(DataType.Kind.BIGINT).notNull());
        stored.addAll(accumulators.types());
        meta = context.stateBackend().valueState(node.id(), "meta", new RowSerializer(stored));
        RowSerializer rows = RowSerializer.of(node.input().outputType());
        pending = context.stateBackend().valueState(node.id(), "pending", rows);
        frame = context.stateBackend().valueState(node.id(), "frame", rows);
        timers = context.stateBackend().timerService(node.id());
        watermark = context.restoredWatermark();
        lateRows = new LateRows(node.id(), node.input().outputType(), node.lateDataTable(),
                node.lateDataTable() == null ? null : context.sideOutput(node.lateDataTable()));
        requestNextProcessingTime();
    }

    /** A row's place in {@code pending} and {@code frame}: its time, then its arrival, each in numeric byte order. */
    private static byte[] namespace(long time, long seq) {
        byte[] ns = new byte[16];
        Namespaces.putOrderedLong(ns, 0, time);
        Namespaces.putOrderedLong(ns, 8, seq);
        return ns;
    }

    private static long timeOf(byte[] namespace) {
        return Namespaces.getOrderedLong(namespace, 0);
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        long now = System.currentTimeMillis();
        long time;
        if (node.eventTime()) {
            Object t = in[node.timeField()];
            if (t == null || (Long) t <= watermark) {
                lateRows.late(in, watermark);
                return;
            }
            time = (Long) t;
        } else {
            time = now;
        }
        Object[] key = new Object[partitionFields.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = in[partitionFields[i]];
        }
        byte[] keyBytes = keySerializer.serialize(key);
        Object[] stored = current(keyBytes, now);
        long seq = (Long) stored[SEQ];
        stored[SEQ] = seq + 1;
        stored[LAST_ROW_AT] = now;
        byte[] ns = namespace(time, seq);
        if (node.eventTime()) {
            pending.put(keyBytes, ns, in);
            timers.registerEventTimeTimer(time, keyBytes, Namespaces.EMPTY);
            meta.put(keyBytes, Namespaces.EMPTY, stored);
        } else {
            List<StateEntry<Object[]>> rows = List.of(new StateEntry<>(keyBytes, ns, in));
            aggregate(keyBytes, stored, rows, time);
        }
        if (ttl > 0) {
            registerCleanup(keyBytes, now);
        }
    }

    /** Timers are coalesced to a tenth of the TTL, so a busy key holds few of them. */
    private void registerCleanup(byte[] keyBytes, long now) {
        long bucket = Math.max(1, ttl / 10);
        long at = (now + ttl + bucket - 1) / bucket * bucket;
        timers.registerProcessingTimeTimer(at, keyBytes, Namespaces.EMPTY);
        context.requestProcessingTime(at);
    }

    /** The key's stored state; fresh when there is none or it expired (its frame is then dropped). */
    private Object[] current(byte[] keyBytes, long now) {
        Object[] stored = meta.get(keyBytes, Namespaces.EMPTY);
        long seq = 0;
        if (stored != null && ttl > 0 && (Long) stored[LAST_ROW_AT] + ttl <= now) {
            clearFrame(keyBytes);
            seq = (Long) stored[SEQ];  // rows still pending keep their places
            stored = null;
        }
        if (stored == null) {
            stored = new Object[ACC + accumulators.types().size()];
            stored[SEQ] = seq;
            stored[FRAME_ROWS] = 0L;
            stored[LAST_ROW_AT] = now;
            Object[] acc = accumulators.create();
            System.arraycopy(acc, 0, stored, ACC, acc.length);
        }
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
    private void aggregate(byte[] keyBytes, Object[] stored, List<StateEntry<Object[]>> rows, long time)
            throws Exception {
        Object[] acc = new Object[stored.length - ACC];
        System.arraycopy(stored, ACC, acc, 0, acc.length);
        long frameRows = (Long) stored[FRAME_ROWS];
        if (!node.bounded()) {
            for (StateEntry<Object[]> r : rows) {
                accumulators.accumulate(acc, r.value());
                if (node.rows()) {
                    emit(r.value(), acc);
                }
            }
        } else if (node.rows()) {
            for (StateEntry<Object[]> r : rows) {
                frame.put(keyBytes, r.namespace(), r.value());
                accumulators.accumulate(acc, r.value());
                if (++frameRows > node.preceding() + 1) {
                    StateEntry<Object[]> oldest;
                    try (CloseableIterator<StateEntry<Object[]>> it = frame.entries(keyBytes)) {
                        oldest = it.next();
                    }
                    frame.remove(keyBytes, oldest.namespace());
                    frameRows--;
                    if (!accumulators.tryRetract(acc, oldest.value())) {
                        acc = rebuild(keyBytes);
                    }
                }
                emit(r.value(), acc);
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
                    frameRows--;
                    retracted = retracted && accumulators.tryRetract(acc, e.value());
                }
            }
            for (StateEntry<Object[]> r : rows) {
                frame.put(keyBytes, r.namespace(), r.value());
                frameRows++;
                if (retracted) {
                    accumulators.accumulate(acc, r.value());
                }
            }
            if (!retracted) {
                acc = rebuild(keyBytes);
            }
        }
        if (!node.rows()) {
            // RANGE: rows of one time are peers, with one result.
            for (StateEntry<Object[]> r : rows) {
                emit(r.value(), acc);
            }
        }
        stored[FRAME_ROWS] = frameRows;
        System.arraycopy(acc, 0, stored, ACC, acc.length);
        meta.put(keyBytes, Namespaces.EMPTY, stored);
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
            timers.fireEventTimeTimers(newWatermark, this::onEventTime);
        }
        output.emitWatermark(newWatermark);
    }

    /** The watermark passed {@code time}: the key's rows of that time leave {@code pending}, in arrival order. */
    private void onEventTime(long time, byte[] keyBytes, byte[] ignored) throws Exception {
        List<StateEntry<Object[]>> rows = new ArrayList<>();
        try (CloseableIterator<StateEntry<Object[]>> it = pending.entries(keyBytes)) {
            while (it.hasNext()) {
                StateEntry<Object[]> e = it.next();
                if (timeOf(e.namespace()) > time) {
                    break;
                }
                pending.remove(keyBytes, e.namespace());
                rows.add(e);
            }
        }
        if (!rows.isEmpty()) {
            aggregate(keyBytes, current(keyBytes, System.currentTimeMillis()), rows, time);
        }
    }

    /** State TTL: a key without rows for that long, and none waiting for the watermark, is dropped. */
    @Override
    public void onProcessingTime(long now) throws Exception {
        if (ttl <= 0) {
            return;
        }
        timers.fireProcessingTimeTimers(now, (time, keyBytes, ns) -> {
            Object[] stored = meta.get(keyBytes, Namespaces.EMPTY);
            if (stored == null || (Long) stored[LAST_ROW_AT] + ttl > now) {
                return;
            }
            try (CloseableIterator<StateEntry<Object[]>> it = pending.entries(keyBytes)) {
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
}
