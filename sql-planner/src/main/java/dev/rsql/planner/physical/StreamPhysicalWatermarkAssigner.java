package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/** Generates watermarks from a field of each row; field {@code rowtimeField} is the event-time attribute. */
public final class StreamPhysicalWatermarkAssigner extends SingleRel implements StreamPhysicalRel {

    private final int rowtimeField;
    private final int watermarkField;

    public StreamPhysicalWatermarkAssigner(RelOptCluster cluster, RelTraitSet traits, RelNode input, int rowtimeField,
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
        return new StreamPhysicalWatermarkAssigner(getCluster(), traitSet, sole(inputs), rowtimeField, watermarkField);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("rowtime", rowtimeField).item("watermark", watermarkField);
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        return inputs.get(0);
    }

    @Override
    public List<ImmutableBitSet> upsertKeys(List<List<ImmutableBitSet>> inputs) {
        return inputs.get(0);
    }

    @Override
    public String describe() {
        return "WatermarkAssigner(rowtime=[" + getRowType().getFieldNames().get(rowtimeField) + "], watermark=["
                + getRowType().getFieldNames().get(watermarkField) + "])";
    }
}
