package dev.rsql.runtime.operator;

import dev.rsql.runtime.data.Row;

/**
 * Generates the watermark of a source task: the largest watermark candidate seen (e.g. {@code rowtime - 2 s}), passed
 * on whenever it advances — after the row that advanced it, so the row itself is never late. Rows with a NULL
 * candidate are passed on without moving the watermark.
 */
public final class WatermarkAssignerOperator implements Operator {

    private final int watermarkField;
    private final Output output;
    private long current = Long.MIN_VALUE;

    public WatermarkAssignerOperator(int watermarkField, Output output) {
        this.watermarkField = watermarkField;
        this.output = output;
    }

    @Override
    public void open(OperatorContext context) {
        current = context.restoredWatermark();
    }

    @Override
    public void process(Row row) throws Exception {
        output.emit(row);
        Object w = row.get(watermarkField);
        if (w != null && (Long) w > current) {
            current = (Long) w;
            output.emitWatermark(current);
        }
    }

    /** Watermarks from upstream (only the end-of-input one reaches a source task's assigner) pass through. */
    @Override
    public void processWatermark(long watermark) throws Exception {
        if (watermark > current) {
            current = watermark;
            output.emitWatermark(watermark);
        }
    }

    /** The watermark emitted so far (checkpointed with the task). */
    public long currentWatermark() {
        return current;
    }
}
