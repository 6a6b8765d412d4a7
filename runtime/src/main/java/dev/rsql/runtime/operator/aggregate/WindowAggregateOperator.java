package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.aggregate.Accumulators;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.graph.WindowAggregateNode;
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
import java.util.Arrays;
import java.util.List;

/**
 * A windowed GROUP BY. State holds, per group key and window, the row count, the accumulators and what was last
 * emitted; a timer at the window's last millisecond fires it once the watermark (or, for processing-time windows, the
 * clock) gets there — firing reads only the due timers, never the whole state. Session windows are kept per key and
 * merged when a row bridges them. Per {@link EmitSpec}, results may also be emitted early (before the window closes)
 * and late (for rows within the allowed lateness); a result that changes is emitted as -U/+U.
 *
 * <p>A row is late only when its window's end plus the allowed lateness is at or behind the watermark: rows of a
 * window that is still open are always counted, however far behind the watermark they are.
 */
public final class WindowAggregateOperator implements Operator {

    private static final int COUNT = 0;
    private static final int EMITTED = 1;
    private static final int FIRED = 2;
    private static final int PENDING = 3;
    private static final int ACC = 4;

    private final WindowAggregateNode node;
    private final Output output;
    private final boolean eventTime;
    private final EmitSpec emit;
    private final int[] groupFields;
    private final RowSerializer keySerializer;
    private final int aggregates;
    private Accumulators accumulators;
    private KeyedValueState<Object[]> state;
    private TimerService timers;
    private OperatorContext context;
    private LateRows lateRows;
    private long watermark = Long.MIN_VALUE;

    public WindowAggregateOperator(WindowAggregateNode node, Output output) {
        this.node = node;
        this.output = output;
        this.eventTime = node.eventTime();
        this.emit = node.emit();
        this.groupFields = node.groupFields();
        this.keySerializer = RowSerializer.forKeys(node.input().outputType(), groupFields);
        this.aggregates = node.aggregates().size();
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        this.context = context;
        accumulators = new Accumulators(node.aggregates());
        accumulators.open(context);
        if (node.input().producesUpdates() && !accumulators.canRetract()) {
            throw new IllegalStateException("window aggregation " + node.id() + " reads updates but not all its "
                    + "aggregates can take rows back");
        }
        List<DataType> resultTypes = node.outputType().types().subList(groupFields.length, groupFields.length + aggregates);
        List<String> resultNames = new ArrayList<>();
        for (int i = 0; i < aggregates; i++) {
            resultNames.add("a" + i);
        }
        List<DataType> stored = new ArrayList<>();
        stored.add(DataType.of(DataType.Kind.BIGINT).notNull());
        stored.add(DataType.row(resultNames, resultTypes));
        stored.add(DataType.of(DataType.Kind.BOOLEAN).notNull());
        stored.add(DataType.of(DataType.Kind.BIGINT));
        stored.addAll(accumulators.types());
        state = context.stateBackend().valueState(node.id(), "windows", new RowSerializer(stored));
        timers = context.stateBackend().timerService(node.id());
        watermark = context.restoredWatermark();
        lateRows = new LateRows(node.id(), node.input().outputType(), node.lateDataTable(),
                node.lateDataTable() == null ? null : context.sideOutput(node.lateDataTable()));
        requestNextProcessingTime();
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        long start = (Long) in[node.windowStartField()];
        long end = (Long) in[node.windowEndField()];
        Object[] key = new Object[groupFields.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = in[groupFields[i]];
        }
        byte[] keyBytes = keySerializer.serialize(key);
        if (node.merging()) {
            session(keyBytes, row, start, end);
        } else if (isLate(end)) {
            lateRows.late(in, start, end, watermark);
        } else {
            update(keyBytes, row, start, end, state.get(keyBytes, Namespaces.window(start, end)));
        }
    }

    private boolean isLate(long end) {
        return eventTime && end - 1 + emit.allowedLateness() <= watermark;
    }

    private Object[] newStored() {
        Object[] stored = new Object[ACC + accumulators.types().size()];
        stored[COUNT] = 0L;
        stored[FIRED] = false;
        Object[] acc = accumulators.create();
        System.arraycopy(acc, 0, stored, ACC, acc.length);
        return stored;
    }

    /** Applies a row to one window (given its current stored value, null if new) and emits as the strategy says. */
    private void update(byte[] keyBytes, Row row, long start, long end, Object[] stored) throws Exception {
        byte[] ns = Namespaces.window(start, end);
        boolean fresh = stored == null;
        if (fresh) {
            if (!row.kind().isAccumulate()) {
                return;
            }
            stored = newStored();
        }
        Object[] acc = Arrays.copyOfRange(stored, ACC, stored.length);
        if (row.kind().isAccumulate()) {
            accumulators.accumulate(acc, row.fields());
            stored[COUNT] = (Long) stored[COUNT] + 1;
        } else {
            accumulators.retract(acc, row.fields());
            stored[COUNT] = (Long) stored[COUNT] - 1;
        }
        System.arraycopy(acc, 0, stored, ACC, acc.length);
        if ((Long) stored[COUNT] == 0) {
            remove(keyBytes, start, end, stored);
            return;
        }
        if (fresh) {
            registerTimer(end - 1, keyBytes, ns);
            if (eventTime && emit.allowedLateness() > 0) {
                timers.registerEventTimeTimer(end - 1 + emit.allowedLateness(), keyBytes, ns);
            }
        }
        boolean fired = (Boolean) stored[FIRED];
        long delay = fired ? emit.lateDelay() : emit.earlyDelay();
        if (fired ? emit.hasLateFiring() : emit.hasEarlyFiring()) {
            if (delay == 0) {
                emitResult(keyBytes, stored, start, end);
            } else if (stored[PENDING] == null) {
                long at = System.currentTimeMillis() + delay;
                stored[PENDING] = at;
                timers.registerProcessingTimeTimer(at, keyBytes, ns);
                context.requestProcessingTime(at);
            }
        }
        state.put(keyBytes, ns, stored);
    }

    private void registerTimer(long time, byte[] keyBytes, byte[] ns) {
        if (eventTime) {
            timers.registerEventTimeTimer(time, keyBytes, ns);
        } else {
            timers.registerProcessingTimeTimer(time, keyBytes, ns);
            context.requestProcessingTime(time);
        }
    }

    /** Drops a window's state and timers; a result already emitted for it is taken back. */
    private void remove(byte[] keyBytes, long start, long end, Object[] stored) throws Exception {
        byte[] ns = Namespaces.window(start, end);
        state.remove(keyBytes, ns);
        if (eventTime) {
            timers.deleteEventTimeTimer(end - 1, keyBytes, ns);
            if (emit.allowedLateness() > 0) {
                timers.deleteEventTimeTimer(end - 1 + emit.allowedLateness(), keyBytes, ns);
            }
        } else {
            timers.deleteProcessingTimeTimer(end - 1, keyBytes, ns);
        }
        if (stored[PENDING] != null) {
            timers.deleteProcessingTimeTimer((Long) stored[PENDING], keyBytes, ns);
        }
        if (stored[EMITTED] != null) {
            output.emit(new Row(RowKind.DELETE, resultRow(keyBytes, (Object[]) stored[EMITTED], start, end)));
        }
    }

    /** Emits the window's current result if it differs from what was emitted before; updates {@code stored}. */
    private void emitResult(byte[] keyBytes, Object[] stored, long start, long end) throws Exception {
        Object[] values = new Object[aggregates];
        accumulators.values(Arrays.copyOfRange(stored, ACC, stored.length), values, 0);
        Object[] previous = (Object[]) stored[EMITTED];
        if (previous == null) {
            output.emit(new Row(RowKind.INSERT, resultRow(keyBytes, values, start, end)));
        } else if (!Arrays.deepEquals(previous, values)) {
            output.emit(new Row(RowKind.UPDATE_BEFORE, resultRow(keyBytes, previous, start, end)));
            output.emit(new Row(RowKind.UPDATE_AFTER, resultRow(keyBytes, values, start, end)));
        }
        stored[EMITTED] = values;
    }

    private Object[] resultRow(byte[] keyBytes, Object[] values, long start, long end) {
        Object[] key = keySerializer.deserialize(keyBytes);
        Object[] out = new Object[key.length + aggregates + 3];
        System.arraycopy(key, 0, out, 0, key.length);
        System.arraycopy(values, 0, out, key.length, aggregates);
        out[key.length + aggregates] = start;
        out[key.length + aggregates + 1] = end;
        out[key.length + aggregates + 2] = end - 1;
        return out;
    }

    /** Session windows: the row's window [ts, ts + gap) absorbs every window of the key it touches. */
    private void session(byte[] keyBytes, Row row, long rowStart, long rowEnd) throws Exception {
        long start = rowStart;
        long end = rowEnd;
        List<long[]> touched = new ArrayList<>();
        List<Object[]> touchedState = new ArrayList<>();
        try (CloseableIterator<StateEntry<Object[]>> it = state.entries(keyBytes)) {
            while (it.hasNext()) {
                StateEntry<Object[]> e = it.next();
                long s = Namespaces.windowStart(e.namespace());
                long en = Namespaces.windowEnd(e.namespace());
                if (s <= rowEnd && en >= rowStart) {
                    touched.add(new long[]{s, en});
                    touchedState.add(e.value());
                    start = Math.min(start, s);
                    end = Math.max(end, en);
                }
            }
        }
        if (isLate(end)) {
            lateRows.late(row.fields(), start, end, watermark);
            return;
        }
        if (touched.size() == 1 && touched.get(0)[0] == start && touched.get(0)[1] == end) {
            update(keyBytes, row, start, end, touchedState.get(0));
            return;
        }
        Object[] merged = null;
        for (int i = 0; i < touched.size(); i++) {
            Object[] s = touchedState.get(i);
            remove(keyBytes, touched.get(i)[0], touched.get(i)[1], s);
            if (merged == null) {
                merged = newStored();
            }
            Object[] acc = Arrays.copyOfRange(merged, ACC, merged.length);
            accumulators.merge(acc, Arrays.copyOfRange(s, ACC, s.length));
            System.arraycopy(acc, 0, merged, ACC, acc.length);
            merged[COUNT] = (Long) merged[COUNT] + (Long) s[COUNT];
            merged[FIRED] = (Boolean) merged[FIRED] || (Boolean) s[FIRED];
        }
        if (merged != null) {
            // The merged window is new: register its timers as for a fresh window, then apply the row.
            byte[] ns = Namespaces.window(start, end);
            registerTimer(end - 1, keyBytes, ns);
            if (eventTime && emit.allowedLateness() > 0) {
                timers.registerEventTimeTimer(end - 1 + emit.allowedLateness(), keyBytes, ns);
            }
        }
        update(keyBytes, row, start, end, merged);
    }

    @Override
    public void processWatermark(long newWatermark) throws Exception {
        if (newWatermark <= watermark) {
            return;
        }
        watermark = newWatermark;
        if (eventTime) {
            timers.fireEventTimeTimers(newWatermark, this::onEventTime);
        }
        output.emitWatermark(newWatermark);
    }

    private void onEventTime(long time, byte[] keyBytes, byte[] ns) throws Exception {
        Object[] stored = state.get(keyBytes, ns);
        if (stored == null) {
            return;
        }
        long start = Namespaces.windowStart(ns);
        long end = Namespaces.windowEnd(ns);
        if (time == end - 1) {
            fire(keyBytes, ns, stored, start, end);
        } else {
            // End of the allowed lateness: the window can no longer change.
            state.remove(keyBytes, ns);
            if (stored[PENDING] != null) {
                timers.deleteProcessingTimeTimer((Long) stored[PENDING], keyBytes, ns);
            }
        }
    }

    /** The window's end was reached: emit its result; keep it only while late rows may still change it. */
    private void fire(byte[] keyBytes, byte[] ns, Object[] stored, long start, long end) throws Exception {
        emitResult(keyBytes, stored, start, end);
        stored[FIRED] = true;
        if (eventTime && emit.allowedLateness() > 0) {
            state.put(keyBytes, ns, stored);
        } else {
            state.remove(keyBytes, ns);
            if (stored[PENDING] != null) {
                timers.deleteProcessingTimeTimer((Long) stored[PENDING], keyBytes, ns);
            }
        }
    }

    @Override
    public void onProcessingTime(long now) throws Exception {
        timers.fireProcessingTimeTimers(now, (time, keyBytes, ns) -> {
            Object[] stored = state.get(keyBytes, ns);
            if (stored == null) {
                return;
            }
            long start = Namespaces.windowStart(ns);
            long end = Namespaces.windowEnd(ns);
            if (!eventTime && time == end - 1) {
                fire(keyBytes, ns, stored, start, end);
                return;
            }
            if (stored[PENDING] != null && (Long) stored[PENDING] == time) {
                stored[PENDING] = null;
                emitResult(keyBytes, stored, start, end);
                state.put(keyBytes, ns, stored);
            }
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
    public void endOfInput() throws Exception {
        if (!eventTime) {
            // Processing-time windows still open when a bounded input ends are fired now.
            timers.fireProcessingTimeTimers(Long.MAX_VALUE, (time, keyBytes, ns) -> {
                Object[] stored = state.get(keyBytes, ns);
                if (stored != null && time == Namespaces.windowEnd(ns) - 1) {
                    fire(keyBytes, ns, stored, Namespaces.windowStart(ns), Namespaces.windowEnd(ns));
                }
            });
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

    /** Rows that came after their window closed. */
    public long lateRowCount() {
        return lateRows == null ? 0 : lateRows.count();
    }

    @Override
    public long lateRecords() {
        return lateRowCount();
    }
}
