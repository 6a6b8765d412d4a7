package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
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
 * A regular join (INNER, LEFT, RIGHT, FULL) on equal keys plus a residual condition, with the rows of both sides
 * kept per key in state. It reads updates as -U/+U (a retracted input row takes back its joined rows) and emits
 * inserts and deletes: deletes whenever an input takes rows back, and for outer joins, whose NULL-padded rows are
 * deleted when a match arrives. Its output has no upsert key.
 */
public final class StreamPhysicalJoin extends Join implements StreamPhysicalRel {

    public StreamPhysicalJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right,
                              RexNode condition, JoinRelType joinType) {
        super(cluster, traits, List.of(), left, right, condition, Set.of(), joinType);
    }

    @Override
    public Join copy(RelTraitSet traitSet, RexNode conditionExpr, RelNode left, RelNode right,
                     JoinRelType joinType, boolean semiJoinDone) {
        return new StreamPhysicalJoin(getCluster(), traitSet, left, right, conditionExpr, joinType);
    }

    /** The equal keys of each side and the residual condition. */
    public JoinInfo joinInfo() {
        return analyzeCondition();
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        return new ModifyKindSet(true, false, getJoinType() != JoinRelType.INNER || ModifyKindSet.union(inputs)
                .isChangelog());
    }

    @Override
    public UpdateKind inputUpdateKind(UpdateKind required) {
        return UpdateKind.BEFORE_AND_AFTER;
    }

    @Override
    public boolean emitsUpdateBefore(UpdateKind required, boolean inputsEmitUpdateBefore) {
        return false;
    }

    @Override
    public String describe() {
        JoinInfo info = joinInfo();
        return "Join(joinType=[" + getJoinType().lowerName + "], leftKeys="
                + PhysicalPlanPrinter.fieldNames(getLeft().getRowType(), info.leftKeys) + ", rightKeys="
                + PhysicalPlanPrinter.fieldNames(getRight().getRowType(), info.rightKeys) + ", where=["
                + RexFormatter.describe(getCondition(), getRowType()) + "])";
    }
}
