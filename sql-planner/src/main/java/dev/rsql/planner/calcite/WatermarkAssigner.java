package dev.rsql.planner.calcite;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;

import java.util.List;

/**
 * Marks where a source's event time starts: watermarks come from field {@code watermarkField} (the table's WATERMARK
 * strategy evaluated per row) and field {@code rowtimeField} is the event-time attribute. Sits directly on the
 * table's columns (stored plus computed), so no rule moves filters below it.
 */
public final class WatermarkAssigner extends SingleRel {

    private final int rowtimeField;
    private final int watermarkField;

    public WatermarkAssigner(RelOptCluster cluster, RelTraitSet traits, RelNode input, int rowtimeField,
                             int watermarkField) {
        super(cluster, traits, input);
        this.rowtimeField = rowtimeField;
        this.watermarkField = watermarkField;
    }

    public int rowtimeField() {
        return rowtimeField;
    }

    public int watermarkField() {
        return watermarkField;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new WatermarkAssigner(getCluster(), traitSet, sole(inputs), rowtimeField, watermarkField);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("rowtime", rowtimeField).item("watermark", watermarkField);
    }
}
