package dev.rsql.runtime.graph;

import java.util.List;

/**
 * Generates event-time watermarks in each source task: the watermark is the largest value of the watermark field seen
 * so far (the planner computes it per row, e.g. {@code rowtime - 2 s}). Rows pass through unchanged.
 */
public final class WatermarkAssignerNode extends GraphNode {

    private final int rowtimeField;
    private final int watermarkField;

    public WatermarkAssignerNode(String id, GraphNode input, int rowtimeField, int watermarkField) {
        super(id, List.of(input), input.outputType());
        this.rowtimeField = rowtimeField;
        this.watermarkField = watermarkField;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    /** The event-time field the watermark is about. */
    public int rowtimeField() {
        return rowtimeField;
    }

    /** The field holding each row's watermark candidate (TIMESTAMP, epoch millis). */
    public int watermarkField() {
        return watermarkField;
    }

    @Override
    public String kind() {
        return "Watermark";
    }

    @Override
    public String describe() {
        return "rowtime=" + outputType().name(rowtimeField) + " watermark=" + outputType().name(watermarkField);
    }
}
