package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.StreamPhysicalCorrelate;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.logical.LogicalJoin;

/**
 * A join with a table function whose arguments do not use the left side ({@code FROM t, LATERAL
 * TABLE(GENERATE_SERIES(1, 3))}: Calcite plans it as a join on TRUE, not a correlate) becomes a
 * {@link StreamPhysicalCorrelate} too.
 */
public final class StreamPhysicalTableFunctionJoinRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalTableFunctionJoinRule", LogicalJoin.class,
            j -> StreamPhysicalCorrelateRule.unwrap(j.getRight()) instanceof TableFunctionScan
                            && j.getCondition().isAlwaysTrue(),
            StreamPhysicalTableFunctionJoinRule::new);

    /** Creates a StreamPhysicalTableFunctionJoinRule. */
    private StreamPhysicalTableFunctionJoinRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalJoin j = (LogicalJoin) rel;
        return new StreamPhysicalCorrelate(rel.getCluster(), rel.getTraitSet(), j.getLeft(),
                StreamPhysicalCorrelateRule.unwrap(j.getRight()), j.getJoinType(), null, j.getRowType());
    }
}
