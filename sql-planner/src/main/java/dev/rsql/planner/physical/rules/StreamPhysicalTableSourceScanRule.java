package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.StreamPhysicalTableSourceScan;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalTableScan;

/** A scan of a connector table becomes a {@link StreamPhysicalTableSourceScan}. */
public final class StreamPhysicalTableSourceScanRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalTableSourceScanRule", LogicalTableScan.class, r -> true,
            StreamPhysicalTableSourceScanRule::new);

    /** Creates a StreamPhysicalTableSourceScanRule. */
    private StreamPhysicalTableSourceScanRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        return new StreamPhysicalTableSourceScan(rel.getCluster(), rel.getTraitSet(), rel.getTable());
    }
}
