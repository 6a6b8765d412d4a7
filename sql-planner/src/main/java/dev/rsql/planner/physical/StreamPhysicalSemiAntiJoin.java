package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

import java.util.List;
import java.util.Set;

/**
 * A semi join (SEMI: the left rows with a match, from {@code IN} and {@code EXISTS}) or an anti join (ANTI: those
 * without, from {@code NOT IN} and {@code NOT EXISTS}) on equal keys plus a residual condition, with the rows of both
 * sides kept per key in state. It reads updates as -U/+U and emits the left rows as inserts and deletes: an anti join
 * deletes a row when its first match arrives, so it emits deletes even over insert-only inputs; a semi join deletes
 * only when an input takes rows back. Its output has no upsert key (rows of one left key may be emitted by the tasks
 * of different join keys).
 */
public final class StreamPhysicalSemiAntiJoin extends Join implements StreamPhysicalRel {

    public StreamPhysicalSemiAntiJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right,
                                      RexNode condition, JoinRelType joinType) {
        super(cluster, traits, List.of(), left, right, condition, Set.of(), joinType);
        if (joinType != JoinRelType.SEMI && joinType != JoinRelType.ANTI) {
            throw new IllegalArgumentException("not a semi or anti join: " + joinType);
        }
    }

    @Override
    public Join copy(RelTraitSet traitSet, RexNode conditionExpr, RelNode left, RelNode right,
                     JoinRelType joinType, boolean semiJoinDone) {
        return new StreamPhysicalSemiAntiJoin(getCluster(), traitSet, left, right, conditionExpr, joinType);
    }

    public boolean isAnti() {
        return getJoinType() == JoinRelType.ANTI;
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
        return new ModifyKindSet(true, false, isAnti() || ModifyKindSet.union(inputs).isChangelog());
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
        return (isAnti() ? "AntiJoin" : "SemiJoin") + "(leftKeys="
                + PhysicalPlanPrinter.fieldNames(getLeft().getRowType(), info.leftKeys) + ", rightKeys="
                + PhysicalPlanPrinter.fieldNames(getRight().getRowType(), info.rightKeys) + ", where=["
                + RexFormatter.describe(getCondition(), joinedRowType()) + "])";
    }

    /** Left fields then right fields: what the condition refers to (the output has only the left fields). */
    private RelDataType joinedRowType() {
        return SqlValidatorUtil.deriveJoinRowType(getLeft().getRowType(),
                getRight().getRowType(), JoinRelType.INNER, getCluster().getTypeFactory(), null, List.of());
    }
}
