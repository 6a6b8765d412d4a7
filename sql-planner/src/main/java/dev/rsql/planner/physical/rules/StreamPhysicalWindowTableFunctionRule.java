package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.Lineage;
import dev.rsql.planner.physical.StreamPhysicalWindowTableFunction;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalTableFunctionScan;

/** A window table function over a table becomes a {@link StreamPhysicalWindowTableFunction}. */
public final class StreamPhysicalWindowTableFunctionRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalWindowTableFunctionRule", LogicalTableFunctionScan.class,
            s -> Lineage.isWindow(s) && s.getInputs().size() == 1,
            StreamPhysicalWindowTableFunctionRule::new);

    /** Creates a StreamPhysicalWindowTableFunctionRule. */
    private StreamPhysicalWindowTableFunctionRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalTableFunctionScan scan = (LogicalTableFunctionScan) rel;
        return new StreamPhysicalWindowTableFunction(rel.getCluster(), rel.getTraitSet(),
                scan.getInputs().get(0), scan.getCall(), scan.getRowType());
    }
}
