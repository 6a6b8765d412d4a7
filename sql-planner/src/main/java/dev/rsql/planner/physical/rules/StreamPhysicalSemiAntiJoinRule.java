package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.StreamPhysicalSemiAntiJoin;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;

/**
 * A SEMI or ANTI join (what the subquery rewrite makes of {@code IN}, {@code EXISTS} and their negations) with at
 * least one equality between its sides becomes a {@link StreamPhysicalSemiAntiJoin}.
 */
public final class StreamPhysicalSemiAntiJoinRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalSemiAntiJoinRule", LogicalJoin.class,
            StreamPhysicalSemiAntiJoinRule::isSemiAntiJoin,
            StreamPhysicalSemiAntiJoinRule::new);

    /** Creates a StreamPhysicalSemiAntiJoinRule. */
    private StreamPhysicalSemiAntiJoinRule(PhysicalRuleConfig config) {
        super(config);
    }

    static boolean isSemiAntiJoin(LogicalJoin join) {
        return (join.getJoinType() == JoinRelType.SEMI || join.getJoinType() == JoinRelType.ANTI)
                && !join.analyzeCondition().leftKeys.isEmpty();
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalJoin j = (LogicalJoin) rel;
        return new StreamPhysicalSemiAntiJoin(rel.getCluster(), rel.getTraitSet(), j.getLeft(), j.getRight(),
                j.getCondition(), j.getJoinType());
    }
}
