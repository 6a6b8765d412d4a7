package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.IntervalBounds;
import dev.rsql.planner.physical.StreamPhysicalIntervalJoin;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.logical.LogicalJoin;

import java.util.Set;

/**
 * A join of two streams whose condition bounds one side's time attribute by the other's ({@link IntervalBounds})
 * becomes a {@link StreamPhysicalIntervalJoin}, with or without equal keys; the regular join rule leaves such joins
 * alone.
 */
public final class StreamPhysicalIntervalJoinRule extends PhysicalConversionRule {

    private static final Set<JoinRelType> TYPES = Set.of(JoinRelType.INNER, JoinRelType.LEFT, JoinRelType.RIGHT,
            JoinRelType.FULL);

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalIntervalJoinRule", LogicalJoin.class,
            StreamPhysicalIntervalJoinRule::isIntervalJoin,
            StreamPhysicalIntervalJoinRule::new);

    /** Creates a StreamPhysicalIntervalJoinRule. */
    private StreamPhysicalIntervalJoinRule(PhysicalRuleConfig config) {
        super(config);
    }

    static boolean isIntervalJoin(LogicalJoin join) {
        return TYPES.contains(join.getJoinType())
                && !(StreamPhysicalCorrelateRule.unwrap(join.getRight()) instanceof TableFunctionScan)
                && IntervalBounds.of(join) != null;
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalJoin j = (LogicalJoin) rel;
        return new StreamPhysicalIntervalJoin(rel.getCluster(), rel.getTraitSet(), j.getLeft(), j.getRight(),
                j.getCondition(), j.getJoinType(), IntervalBounds.of(j));
    }
}
