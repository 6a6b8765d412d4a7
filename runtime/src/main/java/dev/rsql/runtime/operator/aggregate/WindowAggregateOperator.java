package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.graph.WindowAggregateNode;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
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
 * only the due timers, never the whole state. The values of the active (key, window) pairs stay in the heap
 * ({@link KeyedStateCache}, {@code window.state-cache.keys}) and reach state at checkpoints or when evicted, so a row
 * of an active window costs no state access, and a window opened and fired between two checkpoints none at all. Per
 * {@link EmitSpec}, results may also be emitted early (before the
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

    private KeyedStateCache<Object[]> state;

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
        state = new KeyedStateCache<>(context.stateBackend().valueState(node.id(), "windows",
                new RowSerializer(stored)), KeyedStateCache.capacity(context, "window.state-cache.keys", 0));
    }

    @Override
    void flushState() {
        state.flush();
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
            update(state.get(keyBytes, Namespaces.window(start, end)), row, start, end);
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

    /** Applies a row to one window (its entry's value null if new) and emits as the strategy says. */
    private void update(KeyedStateCache.Entry<Object[]> window, Row row, long start, long end) throws Exception {
        Object[] stored = window.value;
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
            remove(window, start, end);
            return;
        }
        byte[] keyBytes = window.key;
        byte[] ns = window.namespace;
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
        window.value = stored;
        window.changed();
    }

    /** Drops a window's state and timers; a result already emitted for it is taken back. */
    private void remove(KeyedStateCache.Entry<Object[]> window, long start, long end) throws Exception {
        Object[] stored = window.value;
        byte[] keyBytes = window.key;
        byte[] ns = window.namespace;
        drop(window);
        if (eventTime) {
            timers.deleteEventTimeTimer(end - 1, keyBytes, ns);
            if (emit.allowedLateness() > 0) {
                timers.deleteEventTimeTimer(end - 1 + emit.allowedLateness(), keyBytes, ns);
            }
        } else {
            timers.deleteProcessingTimeTimer(end - 1, keyBytes, ns);
        }
        if (stored[EMITTED] != null) {
            results.retract(keyBytes, (Object[]) stored[EMITTED], start, end);
        }
    }

    /** Removes a window's value from state, and its pending timer of an early or late firing. */
    private void drop(KeyedStateCache.Entry<Object[]> window) {
        Object[] stored = window.value;
        window.value = null;
        window.changed();
        if (stored[PENDING] != null) {
            timers.deleteProcessingTimeTimer((Long) stored[PENDING], window.key, window.namespace);
        }
    }

    /** Emits the window's current result if it differs from what was emitted before; updates {@code stored}. */
    private void emitResult(byte[] keyBytes, Object[] stored, long start, long end) throws Exception {
        stored[EMITTED] = results.emit(keyBytes, Arrays.copyOfRange(stored, ACC, stored.length),
                (Object[]) stored[EMITTED], start, end);
    }

    @Override
    void onEventTime(long time, byte[] keyBytes, byte[] ns) throws Exception {
        KeyedStateCache.Entry<Object[]> window = state.get(keyBytes, ns);
        if (window.value == null) {
            return;
        }
        if (time == Namespaces.windowEnd(ns) - 1) {
            fire(window);
        } else {
            drop(window);   // end of the allowed lateness: the window can no longer change
        }
    }

    /** The window's end was reached: emit its result; keep it only while late rows may still change it. */
    private void fire(KeyedStateCache.Entry<Object[]> window) throws Exception {
        Object[] stored = window.value;
        emitResult(window.key, stored, Namespaces.windowStart(window.namespace), Namespaces.windowEnd(window.namespace));
        stored[FIRED] = true;
        if (eventTime && emit.allowedLateness() > 0) {
            window.changed();
        } else {
            drop(window);
        }
    }

    @Override
    public void onProcessingTime(long now) throws Exception {
        timers.fireProcessingTimeTimers(now, (time, keyBytes, ns) -> {
            KeyedStateCache.Entry<Object[]> window = state.get(keyBytes, ns);
            Object[] stored = window.value;
            if (stored == null) {
                return;
            }
            if (!eventTime && time == Namespaces.windowEnd(ns) - 1) {
                fire(window);
                return;
            }
            if (stored[PENDING] != null && (Long) stored[PENDING] == time) {
                stored[PENDING] = null;
                emitResult(keyBytes, stored, Namespaces.windowStart(ns), Namespaces.windowEnd(ns));
                window.changed();
            }
        });
        requestNextProcessingTime();
    }

    @Override
    public void endOfInput() throws Exception {
        if (!eventTime) {
            // Processing-time windows still open when a bounded input ends are fired now.
            timers.fireProcessingTimeTimers(Long.MAX_VALUE, (time, keyBytes, ns) -> {
                KeyedStateCache.Entry<Object[]> window = state.get(keyBytes, ns);
                if (window.value != null && time == Namespaces.windowEnd(ns) - 1) {
                    fire(window);
                }
            });
        }
    }
}
