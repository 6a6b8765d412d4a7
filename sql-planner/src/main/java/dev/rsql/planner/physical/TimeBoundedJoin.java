package dev.rsql.planner.physical;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexNode;

import java.util.List;
import java.util.Set;

/**
 * What the time-bounded joins (interval, window, temporal) share: they read inserts only (Flink refuses updating
 * inputs to them too) and emit inserts only, each joined row once it is final; the equal keys of the condition
 * partition both sides.
 */
public abstract class TimeBoundedJoin extends Join implements InsertOnlyRel {

    protected TimeBoundedJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right,
                              RexNode condition, JoinRelType joinType) {
        super(cluster, traits, List.of(), left, right, condition, Set.of(), joinType);
    }

    /** The equal keys of each side, and the rest of the condition. */
    public JoinInfo joinInfo() {
        return analyzeCondition();
    }

    /** The condition left once the equal keys (and, for some joins, the time bounds) are taken out. */
    public abstract RexNode residual();

    @Override
    public UpdateKind inputUpdateKind(UpdateKind required) {
        return UpdateKind.NONE;
    }

    @Override
    public boolean emitsUpdateBefore(UpdateKind required, boolean inputsEmitUpdateBefore) {
        return false;
    }

    /** The node's kind, join type and keys, for EXPLAIN; {@code details} follow. */
    protected String describe(String kind, String details) {
        JoinInfo info = joinInfo();
        RexNode residual = residual();
        return kind + "(joinType=[" + getJoinType().lowerName + "], leftKeys="
                + PhysicalPlanPrinter.fieldNames(getLeft().getRowType(), info.leftKeys) + ", rightKeys="
                + PhysicalPlanPrinter.fieldNames(getRight().getRowType(), info.rightKeys) + details
                + (residual.isAlwaysTrue() ? "" : ", where=[" + RexFormatter.describe(residual, getRowType()) + "]")
                + ")";
    }
}
