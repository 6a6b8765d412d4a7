package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.StreamPhysicalCalc;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalCalc;
import org.apache.calcite.rex.RexOver;

/** A filter and projection becomes a {@link StreamPhysicalCalc}; one with OVER windows stays unsupported. */
public final class StreamPhysicalCalcRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalCalcRule", LogicalCalc.class,
            c -> !RexOver.containsOver(c.getProgram()),
            StreamPhysicalCalcRule::new);

    /** Creates a StreamPhysicalCalcRule. */
    private StreamPhysicalCalcRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalCalc calc = (LogicalCalc) rel;
        return new StreamPhysicalCalc(rel.getCluster(), rel.getTraitSet(), calc.getInput(),
                calc.getProgram());
    }
}
