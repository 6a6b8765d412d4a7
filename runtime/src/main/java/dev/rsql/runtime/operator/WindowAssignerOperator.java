package dev.rsql.runtime.operator;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.WindowAssignerNode;
import dev.rsql.runtime.graph.WindowSlices;
import dev.rsql.runtime.graph.WindowSpec;

/**
 * Appends window start, end and time to each row, once per window its time falls into. Windows are aligned to the
 * epoch (plus offset): TUMBLE one window, HOP size/slide windows, CUMULATE every window of the row's period that ends
 * after it; SESSION the row's own {@code [time, time + gap)}, merged later. Sliced, a HOP or CUMULATE row gets its one
 * slice instead (see {@link WindowSlices}). A row without a time gets no window.
 */
public final class WindowAssignerOperator implements Operator {

    private final WindowSpec window;
    private final WindowSlices slices;
    private final Output output;

    public WindowAssignerOperator(WindowAssignerNode node, Output output) {
        this.window = node.window();
        this.slices = node.slices();
        this.output = output;
    }

    @Override
    public void process(Row row) throws Exception {
        long ts;
        if (window.eventTime()) {
            Object t = row.get(window.timeField());
            if (t == null) {
                return;
            }
            ts = (Long) t;
        } else {
            ts = System.currentTimeMillis();
        }
        if (slices != null) {
            long start = slices.sliceStart(ts);
            emit(row, start, start + slices.sliceSize());
            return;
        }
        switch (window.kind()) {
            case TUMBLE: {
                long start = ts - Math.floorMod(ts - window.offset(), window.size());
                emit(row, start, start + window.size());
                break;
            }
            case HOP: {
                long lastStart = ts - Math.floorMod(ts - window.offset(), window.slide());
                for (long start = lastStart; start > ts - window.size(); start -= window.slide()) {
                    emit(row, start, start + window.size());
                }
                break;
            }
            case CUMULATE: {
                long start = ts - Math.floorMod(ts - window.offset(), window.size());
                long firstEnd = start + ((ts - start) / window.slide() + 1) * window.slide();
                for (long end = firstEnd; end <= start + window.size(); end += window.slide()) {
                    emit(row, start, end);
                }
                break;
            }
            default:
                emit(row, ts, ts + window.size());
        }
    }

    private void emit(Row row, long start, long end) throws Exception {
        Object[] in = row.fields();
        Object[] out = new Object[in.length + 3];
        System.arraycopy(in, 0, out, 0, in.length);
        out[in.length] = start;
        out[in.length + 1] = end;
        out[in.length + 2] = end - 1;
        output.emit(row.withFields(out));
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        output.emitWatermark(watermark);
    }
}
