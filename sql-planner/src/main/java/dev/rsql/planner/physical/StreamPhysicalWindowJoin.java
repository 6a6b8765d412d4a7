package dev.rsql.planner.physical;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;

/**
 * A join of two window table functions' outputs (INNER, LEFT, RIGHT, FULL) whose equal keys include both sides'
 * window_start and window_end: each window's rows of a key are joined once the watermark passes the window's end,
 * then dropped. Insert-only in and out. Its inputs carry the window columns: window table functions, or window
 * aggregations over them.
 */
public final class StreamPhysicalWindowJoin extends TimeBoundedJoin {

    public StreamPhysicalWindowJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right,
                                    RexNode condition, JoinRelType joinType) {
        super(cluster, traits, left, right, condition, joinType);
    }

    @Override
    public Join copy(RelTraitSet traitSet, RexNode conditionExpr, RelNode left, RelNode right,
                     JoinRelType joinType, boolean semiJoinDone) {
        return new StreamPhysicalWindowJoin(getCluster(), traitSet, left, right, conditionExpr, joinType);
    }

    /** The window_end field of each side: {@code [left, right]}. */
    public int[] windowEnds() {
        var info = joinInfo();
        for (int i = 0; i < info.leftKeys.size(); i++) {
            Lineage.WindowOrigin o = Lineage.windowOrigin(getLeft(), info.leftKeys.get(i));
            if (o != null && o.column() == Lineage.WindowColumn.END) {
                return new int[] {info.leftKeys.get(i), info.rightKeys.get(i)};
            }
        }
        throw new IllegalStateException("window join without window_end keys");
    }

    @Override
    public RexNode residual() {
        RexBuilder rex = getCluster().getRexBuilder();
        return joinInfo().getRemaining(rex);
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public String describe() {
        return describe("WindowJoin", ", window=[" + Lineage.windowOrigin(getLeft(), windowEnds()[0]).scan().getCall()
                + "]");
    }
}
