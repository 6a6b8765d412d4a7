package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.graph.WindowAggregateNode;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A windowed GROUP BY over rows that carry their whole window (TUMBLE, and HOP or CUMULATE when not sliced). State
 * holds, per group key and window, the row count, the accumulators and what was last emitted; a timer at the window's
 * last millisecond fires it once the watermark (or, for processing-time windows, the clock) gets there — firing reads
 * only the due timers, never the whole state. Per {@link EmitSpec}, results may also be emitted early (before the
 * window closes) and late (for rows within the allowed lateness); a result that changes is emitted as -U/+U. Session
 * windows are {@link SessionWindowAggregateOperator}'s, sliced windows {@link SlicingWindowAggregateOperator}'s.
 *
 * <p>A row is late only when its window's end plus the allowed lateness is at or behind the watermark: rows of a
 * window that is still open are always counted, however far behind the watermark they are.
 */
public final class WindowAggregateOperator extends KeyedWindowAggregation {

    private static final int COUNT = 0;
    private static final int EMITTED = 1;
    private static final int FIRED = 2;
    private static final int PENDING = 3;
    private static final int ACC = 4;

    private KeyedValueState<Object[]> state;

    public WindowAggregateOperator(WindowAggregateNode node, Output output) {
        super(node, output);
        if (node.merging() || node.slices() != null) {
            throw new IllegalArgumentException("window aggregation " + node.id() + " merges or is sliced: not this "
                    + "operator's");
        }
    }

    @Override
    void openState(OperatorContext context) {
        List<DataType> stored = new ArrayList<>();
        stored.add(DataType.of(DataType.Kind.BIGINT).notNull());
        stored.add(WindowResults.valuesType(node));
        stored.add(DataType.of(DataType.Kind.BOOLEAN).notNull());
        stored.add(DataType.of(DataType.Kind.BIGINT));
        stored.addAll(accumulators.types());
        state = context.stateBackend().valueState(node.id(), "windows", new RowSerializer(stored));
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        long start = (Long) in[node.windowStartField()];
        long end = (Long) in[node.windowEndField()];
        Object[] key = groupKey(in);
        byte[] keyBytes = keySerializer.serialize(key);
        if (isLate(end)) {
            lateRows.late(in, start, end, watermark);
        } else {
            update(keyBytes, row, start, end, state.get(keyBytes, Namespaces.window(start, end)));
        }
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
        stored[COUNT] = (Long) stored[COUNT] + accumulate(acc, row);
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
            results.retract(keyBytes, (Object[]) stored[EMITTED], start, end);
        }
    }

    /** Emits the window's current result if it differs from what was emitted before; updates {@code stored}. */
    private void emitResult(byte[] keyBytes, Object[] stored, long start, long end) throws Exception {
        stored[EMITTED] = results.emit(keyBytes, Arrays.copyOfRange(stored, ACC, stored.length),
                (Object[]) stored[EMITTED], start, end);
    }

    @Override
    void onEventTime(long time, byte[] keyBytes, byte[] ns) throws Exception {
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
}
