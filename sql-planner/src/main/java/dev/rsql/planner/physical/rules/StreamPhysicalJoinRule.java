package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.StreamPhysicalJoin;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.Set;

/**
 * A join of two streams with at least one equality between them (of equal types) becomes a regular
 * {@link StreamPhysicalJoin}. Joins with a table function are correlates ({@link StreamPhysicalTableFunctionJoinRule}).
 */
public final class StreamPhysicalJoinRule extends PhysicalConversionRule {

    private static final Set<JoinRelType> TYPES = Set.of(JoinRelType.INNER, JoinRelType.LEFT, JoinRelType.RIGHT,
            JoinRelType.FULL);

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalJoinRule", LogicalJoin.class,
            StreamPhysicalJoinRule::isRegularJoin,
            StreamPhysicalJoinRule::new);

    /** Creates a StreamPhysicalJoinRule. */
    private StreamPhysicalJoinRule(PhysicalRuleConfig config) {
        super(config);
    }

    /** An equi-join of two streams, on keys of the same type on both sides. */
    static boolean isRegularJoin(LogicalJoin join) {
        if (!TYPES.contains(join.getJoinType())
                || StreamPhysicalCorrelateRule.unwrap(join.getRight()) instanceof TableFunctionScan
                || StreamPhysicalIntervalJoinRule.isIntervalJoin(join)
                || StreamPhysicalWindowJoinRule.isWindowJoin(join)) {
            return false;
        }
        JoinInfo info = join.analyzeCondition();
        if (info.leftKeys.isEmpty()) {
            return false;
        }
        for (int i = 0; i < info.leftKeys.size(); i++) {
            if (!SqlTypeUtil.equalSansNullability(
                    join.getLeft().getRowType().getFieldList().get(info.leftKeys.get(i)).getType(),
                    join.getRight().getRowType().getFieldList().get(info.rightKeys.get(i)).getType())) {
                return false;
            }
        }
        return true;
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalJoin j = (LogicalJoin) rel;
        return new StreamPhysicalJoin(rel.getCluster(), rel.getTraitSet(), j.getLeft(), j.getRight(),
                j.getCondition(), j.getJoinType());
    }
}
