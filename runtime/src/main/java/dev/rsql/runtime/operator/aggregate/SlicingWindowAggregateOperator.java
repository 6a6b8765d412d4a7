package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.WindowAggregateNode;
import dev.rsql.runtime.graph.WindowSlices;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * A GROUP BY over HOP or CUMULATE windows cut into slices ({@link WindowSlices}), as Flink's slicing window
 * aggregation: each row carries its slice (not its windows) and updates that one slice's accumulators; when a window
 * ends, the accumulators of its slices are merged and its result emitted, and a slice is dropped once the last window
 * containing it has fired. So a row costs the same whatever size/slide is.
 *
 * <p>A key's slices are one small state value, a list ordered by slice end of (slice end, row count, accumulators as
 * a nested row), kept in the heap for the active keys ({@link KeyedStateCache}) and written back at checkpoints. One
 * timer per key and window end (namespace empty): a new slice registers its first window still open, and a window that
 * fires registers the next one if slices of it remain. Results are emitted once, when the window closes (the planner
 * slices only windows without early or late firing); a row whose windows have all closed is late, and one whose first
 * windows have closed counts in the others and is late for those, as when every window gets its own copy of the row.
 */
public final class SlicingWindowAggregateOperator extends KeyedWindowAggregation {

    private static final int SLICE_END = 0;
    private static final int COUNT = 1;
    private static final int ACC = 2;

    private final WindowSlices slices;
    private KeyedStateCache<List<Object[]>> state;

    public SlicingWindowAggregateOperator(WindowAggregateNode node, Output output) {
        super(node, output);
        if (node.emit().producesUpdates()) {
            throw new IllegalArgumentException("sliced window aggregation " + node.id() + " cannot emit early or late");
        }
        this.slices = node.slices();
    }

    @Override
    void openState(OperatorContext context) {
        List<DataType> stored = List.of(DataType.of(DataType.Kind.BIGINT).notNull(),
                DataType.of(DataType.Kind.BIGINT).notNull(), WindowResults.accumulatorsType(accumulators));
        state = keyedWindowLists(context, "slices", stored);
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        long sliceEnd = (Long) in[node.windowEndField()];
        // The first window of the slice still open: the row is late for the windows before it.
        long windowEnd = slices.firstWindowEnd(sliceEnd);
        long lastWindowEnd = slices.lastWindowEnd(sliceEnd);
        while (eventTime && windowEnd <= lastWindowEnd && windowEnd - 1 <= watermark) {
            late(in, slices.windowStart(windowEnd), windowEnd);
            windowEnd = slices.nextWindowEnd(windowEnd);
        }
        if (windowEnd > lastWindowEnd) {
            return;
        }
        Object[] key = groupKey(in);
        KeyedStateCache.Entry<List<Object[]>> entry = state.get(keySerializer.serialize(key));
        List<Object[]> list = entry.value == null ? new ArrayList<>(4) : entry.value;
        int i = list.size();
        while (i > 0 && (Long) list.get(i - 1)[SLICE_END] > sliceEnd) {
            i--;
        }
        Object[] slice;
        if (i > 0 && (Long) list.get(i - 1)[SLICE_END] == sliceEnd) {
            slice = list.get(i - 1);
        } else {
            if (!row.kind().isAccumulate()) {
                return;     // takes back a row of no slice
            }
            slice = new Object[]{sliceEnd, 0L, accumulators.create()};
            list.add(i, slice);
            registerTimer(windowEnd - 1, entry.key);
        }
        slice[COUNT] = (Long) slice[COUNT] + accumulate((Object[]) slice[ACC], row);
        if ((Long) slice[COUNT] == 0) {
            list.remove(slice);
        }
        entry.value = list.isEmpty() ? null : list;
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
        KeyedStateCache.Entry<List<Object[]>> entry = state.get(keyBytes);
        if (entry.value == null) {
            return;
        }
        List<Object[]> list = entry.value;
        long windowStart = slices.windowStart(windowEnd);
        long next = slices.nextWindowEnd(windowEnd);
        long nextStart = slices.windowStart(next);
        Object[] acc = null;
        long count = 0;
        boolean nextHasSlices = false;
        for (int i = 0; i < list.size(); i++) {
            Object[] slice = list.get(i);
            long sliceEnd = (Long) slice[SLICE_END];
            if (sliceEnd > windowStart && sliceEnd <= windowEnd) {
                if (acc == null) {
                    acc = accumulators.create();
                }
                accumulators.merge(acc, (Object[]) slice[ACC]);
                count += (Long) slice[COUNT];
                if (slices.lastWindowEnd(sliceEnd) <= windowEnd) {
                    list.remove(i--);
                    entry.changed();
                    continue;
                }
            }
            nextHasSlices |= sliceEnd > nextStart && sliceEnd <= next;
        }
        if (list.isEmpty()) {
            entry.value = null;
        }
        if (nextHasSlices) {
            registerTimer(next - 1, keyBytes);
        }
        if (count > 0) {
            results.emit(keyBytes, acc, null, windowStart, windowEnd);
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
