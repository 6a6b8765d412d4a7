package dev.rsql.planner.physical;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexNode;

/**
 * An interval join (INNER, LEFT, RIGHT, FULL): rows of equal keys whose time attributes (both event time or both
 * processing time) lie within {@link IntervalBounds} of each other, plus a residual condition. Insert-only in and out;
 * each side's rows are dropped once the watermark (or the clock) passes the end of their range, outer rows padded
 * with NULLs then. Its output keeps both sides' time attributes (the output watermark is held back by the bounds).
 */
public final class StreamPhysicalIntervalJoin extends TimeBoundedJoin {

    private final IntervalBounds bounds;

    public StreamPhysicalIntervalJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right,
                                      RexNode condition, JoinRelType joinType, IntervalBounds bounds) {
        super(cluster, traits, left, right, condition, joinType);
        this.bounds = bounds;
    }

    @Override
    public Join copy(RelTraitSet traitSet, RexNode conditionExpr, RelNode left, RelNode right,
                     JoinRelType joinType, boolean semiJoinDone) {
        return new StreamPhysicalIntervalJoin(getCluster(), traitSet, left, right, conditionExpr, joinType, bounds);
    }

    public IntervalBounds bounds() {
        return bounds;
    }

    @Override
    public RexNode residual() {
        return bounds.residual();
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public String describe() {
        String l = getLeft().getRowType().getFieldNames().get(bounds.leftTime());
        String r = getRight().getRowType().getFieldNames().get(bounds.rightTime());
        return describe("IntervalJoin", ", " + (bounds.eventTime() ? "rowtime" : "proctime") + "=[left." + l
                + " - right." + r + " BETWEEN " + bounds.lower() + " AND " + bounds.upper() + " ms]");
    }
}
