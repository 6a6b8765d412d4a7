package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.WindowAggregateNode;
import dev.rsql.runtime.graph.WindowSlices;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.types.DataType;

import java.util.List;

/**
 * A GROUP BY over HOP or CUMULATE windows cut into slices ({@link WindowSlices}), as Flink's slicing window
 * aggregation: each row carries its slice (not its windows) and updates that one slice's accumulators; when a window
 * ends, the accumulators of its slices are merged and its result emitted, and a slice is dropped once the last window
 * containing it has fired. So a row costs the same whatever size/slide is.
 *
 * <p>A key's slices are one small state value ({@link KeySlices}: slice ends, row counts and accumulators), kept in
 * the heap for the active keys ({@link KeyedStateCache}) and written back at checkpoints. One timer per key and window
 * end (namespace empty): a new slice registers its first window still open, and a window that fires registers the
 * next one if slices of it remain, unless a slice opened in the next one (and registered it). Results are emitted
 * once, when the window closes (the planner slices only windows without early or late firing); a row whose windows
 * have all closed is late, and one whose first windows have closed counts in the others and is late for those, as
 * when every window gets its own copy of the row.
 */
public final class SlicingWindowAggregateOperator extends KeyedWindowAggregation {

    private final WindowSlices slices;
    private KeyedStateCache<KeySlices> state;
    /** The slice of the last row processed and its first and last window ends (rows mostly come in time order). */
    private long rowSliceEnd = Long.MIN_VALUE;
    private long rowFirstWindowEnd;
    private long rowLastWindowEnd;

    public SlicingWindowAggregateOperator(WindowAggregateNode node, Output output) {
        super(node, output);
        if (node.emit().producesUpdates()) {
            throw new IllegalArgumentException("sliced window aggregation " + node.id() + " cannot emit early or late");
        }
        this.slices = node.slices();
    }

    @Override
    void openState(OperatorContext context) {
        RowSerializer slice = new RowSerializer(List.of(DataType.of(DataType.Kind.BIGINT).notNull(),
                DataType.of(DataType.Kind.BIGINT).notNull(), WindowResults.accumulatorsType(accumulators)));
        state = keyedWindowState(context, "slices", new KeySlices.Serializer(slice));
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        long sliceEnd = (Long) in[node.windowEndField()];
        if (sliceEnd != rowSliceEnd) {
            rowSliceEnd = sliceEnd;
            rowFirstWindowEnd = slices.firstWindowEnd(sliceEnd);
            rowLastWindowEnd = slices.lastWindowEnd(sliceEnd);
        }
        // The first window of the slice still open: the row is late for the windows before it.
        long windowEnd = rowFirstWindowEnd;
        while (eventTime && windowEnd <= rowLastWindowEnd && windowEnd - 1 <= watermark) {
            late(in, slices.windowStart(windowEnd), windowEnd);
            windowEnd = slices.nextWindowEnd(windowEnd);
        }
        if (windowEnd > rowLastWindowEnd) {
            return;
        }
        Object[] key = groupKey(in);
        KeyedStateCache.Entry<KeySlices> entry = state.get(keySerializer.serialize(key));
        KeySlices keySlices = entry.value == null ? new KeySlices(4) : entry.value;
        int i = keySlices.position(sliceEnd);
        if (i == keySlices.size || keySlices.ends[i] != sliceEnd) {
            if (!row.kind().isAccumulate()) {
                return;     // takes back a row of no slice
            }
            keySlices.insert(i, sliceEnd, accumulators.create());
            registerTimer(windowEnd - 1, entry.key);
        }
        keySlices.counts[i] += accumulate(keySlices.accs[i], row);
        if (keySlices.counts[i] == 0) {
            keySlices.remove(i);
        }
        entry.value = keySlices.size == 0 ? null : keySlices;
        entry.changed();
    }

    /** The row as it would have come in that window (its window columns are its slice's), to the late rows. */
    private void late(Object[] in, long windowStart, long windowEnd) throws Exception {
        Object[] row = in.clone();
        row[node.windowStartField()] = windowStart;
        row[node.windowEndField()] = windowEnd;
        lateRows.late(row, windowStart, windowEnd, watermark);
    }

    @Override
    void onEventTime(long time, byte[] keyBytes, byte[] namespace) throws Exception {
        fire(time + 1, keyBytes);
    }

    /** The window ending at {@code windowEnd} closed for the key: merge its slices, emit, drop the ones done. */
    private void fire(long windowEnd, byte[] keyBytes) throws Exception {
        KeyedStateCache.Entry<KeySlices> entry = state.get(keyBytes);
        KeySlices keySlices = entry.value;
        if (keySlices == null) {
            return;
        }
        long windowStart = slices.windowStart(windowEnd);
        long next = slices.nextWindowEnd(windowEnd);
        long nextStart = slices.windowStart(next);
        Object[] acc = null;
        long count = 0;
        boolean nextHasOlderSlices = false;
        boolean nextRegistered = false;
        for (int i = 0; i < keySlices.size; i++) {
            long sliceEnd = keySlices.ends[i];
            if (sliceEnd > windowStart && sliceEnd <= windowEnd) {
                if (acc == null) {
                    acc = accumulators.create();
                }
                accumulators.merge(acc, keySlices.accs[i]);
                count += keySlices.counts[i];
                if (sliceEnd <= nextStart) {
                    // not in the next window: this was its last (the windows of a slice follow one another)
                    keySlices.remove(i--);
                    entry.changed();
                    continue;
                }
                nextHasOlderSlices = true;
            }
            // a slice whose first window is the next one registered that window's timer when it opened
            nextRegistered |= sliceEnd > windowEnd && sliceEnd <= next;
        }
        if (keySlices.size == 0) {
            entry.value = null;
        }
        if (nextHasOlderSlices && !nextRegistered) {
            registerTimer(next - 1, keyBytes);
        }
        if (count > 0) {
            if (keySlices.key == null) {
                keySlices.key = keySerializer.deserialize(keyBytes);
            }
            results.emit(keySlices.key, acc, windowStart, windowEnd);
        }
    }

    @Override
    public void onProcessingTime(long now) throws Exception {
        if (!eventTime) {
            timers.fireProcessingTimeTimers(now, (time, keyBytes, ns) -> fire(time + 1, keyBytes));
        }
        requestNextProcessingTime();
    }

    @Override
    public void endOfInput() throws Exception {
        if (!eventTime) {
            // Processing-time windows still open when a bounded input ends are fired now.
            timers.fireProcessingTimeTimers(Long.MAX_VALUE, (time, keyBytes, ns) -> fire(time + 1, keyBytes));
        }
    }

    @Override
    void flushState() throws Exception {
        state.flush();
    }
}
