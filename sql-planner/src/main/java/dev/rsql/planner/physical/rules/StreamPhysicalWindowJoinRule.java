package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.Lineage;
import dev.rsql.planner.physical.StreamPhysicalWindowJoin;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;

import java.util.Set;

/**
 * A join whose equal keys include window_start = window_start and window_end = window_end of two window table
 * functions (straight, or through window aggregations over them, as in Nexmark q8) becomes a
 * {@link StreamPhysicalWindowJoin}; whether the two windows agree is checked by the translator, with the statement's
 * position.
 */
public final class StreamPhysicalWindowJoinRule extends PhysicalConversionRule {

    private static final Set<JoinRelType> TYPES = Set.of(JoinRelType.INNER, JoinRelType.LEFT, JoinRelType.RIGHT,
            JoinRelType.FULL);

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalWindowJoinRule", LogicalJoin.class,
            StreamPhysicalWindowJoinRule::isWindowJoin,
            StreamPhysicalWindowJoinRule::new);

    /** Creates a StreamPhysicalWindowJoinRule. */
    private StreamPhysicalWindowJoinRule(PhysicalRuleConfig config) {
        super(config);
    }

    static boolean isWindowJoin(LogicalJoin join) {
        if (!TYPES.contains(join.getJoinType())) {
            return false;
        }
        JoinInfo info = join.analyzeCondition();
        boolean start = false;
        boolean end = false;
        for (int i = 0; i < info.leftKeys.size(); i++) {
            Lineage.WindowOrigin l = Lineage.windowOrigin(join.getLeft(), info.leftKeys.get(i));
            Lineage.WindowOrigin r = Lineage.windowOrigin(join.getRight(), info.rightKeys.get(i));
            if (l != null && r != null && l.column() == r.column()) {
                start |= l.column() == Lineage.WindowColumn.START;
                end |= l.column() == Lineage.WindowColumn.END;
            }
        }
        return start && end;
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalJoin j = (LogicalJoin) rel;
        return new StreamPhysicalWindowJoin(rel.getCluster(), rel.getTraitSet(), j.getLeft(), j.getRight(),
                j.getCondition(), j.getJoinType());
    }
}
