package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.aggregate.Accumulators;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.graph.WindowAggregateNode;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowListSerializer;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.TimerService;
import dev.rsql.runtime.state.TypeSerializer;
import dev.rsql.runtime.types.DataType;

import java.util.List;

/**
 * What the window aggregation operators (whole windows, sessions, slices) share: the group key of a row, the
 * accumulators, the timers (event or processing time), the watermark, late rows and the emitted results. Each keeps
 * its own state, opened by {@link #openState}.
 */
abstract class KeyedWindowAggregation implements Operator {

    final WindowAggregateNode node;
    final Output output;
    final boolean eventTime;
    final EmitSpec emit;
    final int[] groupFields;
    final RowSerializer keySerializer;
    Accumulators accumulators;
    TimerService timers;
    OperatorContext context;
    WindowResults results;
    LateRows lateRows;
    long watermark = Long.MIN_VALUE;

    KeyedWindowAggregation(WindowAggregateNode node, Output output) {
        this.node = node;
        this.output = output;
        this.eventTime = node.eventTime();
        this.emit = node.emit();
        this.groupFields = node.groupFields();
        this.keySerializer = RowSerializer.forKeys(node.input().outputType(), groupFields);
    }

    @Override
    public final void open(OperatorContext context) throws Exception {
        this.context = context;
        accumulators = WindowResults.openAccumulators(node, context);
        openState(context);
        timers = context.stateBackend().timerService(node.id());
        watermark = context.restoredWatermark();
        results = new WindowResults(output, keySerializer, accumulators);
        lateRows = WindowResults.lateRows(node, context);
        requestNextProcessingTime();
    }

    /** Opens the operator's own state (the accumulators are open). */
    abstract void openState(OperatorContext context) throws Exception;

    /**
     * State {@code name} holding all of a key's windows as one value, a list of rows of {@code columns}, kept in the
     * heap for the active keys.
     */
    final KeyedStateCache<List<Object[]>> keyedWindowLists(OperatorContext context, String name,
                                                           List<DataType> columns) {
        return keyedWindowState(context, name, new RowListSerializer(new RowSerializer(columns)));
    }

    /** State {@code name} holding all of a key's windows as one value, kept in the heap for the active keys. */
    final <V> KeyedStateCache<V> keyedWindowState(OperatorContext context, String name, TypeSerializer<V> values) {
        return new KeyedStateCache<>(context.stateBackend().valueState(node.id(), name, values),
                KeyedStateCache.capacity(context, "window.state-cache.keys", 1));
    }

    /** Hands what the operator keeps in the heap to its state, before a checkpoint. */
    void flushState() throws Exception {
    }

    /** The group fields of an input row. */
    final Object[] groupKey(Object[] in) {
        Object[] key = new Object[groupFields.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = in[groupFields[i]];
        }
        return key;
    }

    /**
     * Adds a row to the accumulators {@code acc}, or takes a retraction out of them; returns the change to the count
     * of rows in them (+1 or -1).
     */
    final long accumulate(Object[] acc, Row row) {
        if (row.kind().isAccumulate()) {
            accumulators.accumulate(acc, row.fields());
            return 1;
        }
        accumulators.retract(acc, row.fields());
        return -1;
    }

    /** Whether a window ending at {@code end} closed for good: its end plus the allowed lateness is behind. */
    final boolean isLate(long end) {
        return eventTime && end - 1 + emit.allowedLateness() <= watermark;
    }

    final void registerTimer(long time, byte[] keyBytes, byte[] namespace) {
        if (eventTime) {
            timers.registerEventTimeTimer(time, keyBytes, namespace);
        } else {
            timers.registerProcessingTimeTimer(time, keyBytes, namespace);
            context.requestProcessingTime(time);
        }
    }

    /** A timer of the whole key (empty namespace), for operators keeping all of a key's windows in one value. */
    final void registerTimer(long time, byte[] keyBytes) {
        registerTimer(time, keyBytes, Namespaces.EMPTY);
    }

    final void requestNextProcessingTime() {
        long next = timers.nextProcessingTime();
        if (next != Long.MAX_VALUE) {
            context.requestProcessingTime(next);
        }
    }

    @Override
    public final void processWatermark(long newWatermark) throws Exception {
        if (newWatermark <= watermark) {
            return;
        }
        watermark = newWatermark;
        if (eventTime) {
            timers.fireEventTimeTimers(newWatermark, this::onEventTime);
        }
        output.emitWatermark(newWatermark);
    }

    /** An event-time timer registered for {@code time} is due: the watermark reached it. */
    abstract void onEventTime(long time, byte[] keyBytes, byte[] namespace) throws Exception;

    @Override
    public final void flush() throws Exception {
        flushState();
        lateRows.flush();
    }

    @Override
    public final void close() throws Exception {
        try {
            lateRows.close();
        } finally {
            accumulators.close();
        }
    }

    @Override
    public final long lateRecords() {
        return lateRows == null ? 0 : lateRows.count();
    }
}
