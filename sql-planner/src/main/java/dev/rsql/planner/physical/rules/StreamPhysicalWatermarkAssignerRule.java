package dev.rsql.planner.physical.rules;

import dev.rsql.planner.calcite.WatermarkAssigner;
import dev.rsql.planner.physical.StreamPhysicalWatermarkAssigner;
import org.apache.calcite.rel.RelNode;

/** A table's WATERMARK becomes a {@link StreamPhysicalWatermarkAssigner}. */
public final class StreamPhysicalWatermarkAssignerRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalWatermarkAssignerRule", WatermarkAssigner.class, r -> true,
            StreamPhysicalWatermarkAssignerRule::new);

    /** Creates a StreamPhysicalWatermarkAssignerRule. */
    private StreamPhysicalWatermarkAssignerRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        WatermarkAssigner w = (WatermarkAssigner) rel;
        return new StreamPhysicalWatermarkAssigner(rel.getCluster(), rel.getTraitSet(), w.getInput(),
                w.rowtimeField(), w.watermarkField());
    }
}
