package dev.rsql.planner.physical;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexNode;

/**
 * A join {@code FOR SYSTEM_TIME AS OF left.time} (INNER or LEFT) with the table under the snapshot, the condition
 * rewritten over left fields then the table's. The translator decides whether it can run: as an event-time temporal
 * join, the period an event-time attribute of the left side and the table versioned (a primary key that the join's
 * equal keys cover, and a watermark); left rows then wait for the watermark and join the version valid at their
 * time. The left side is insert-only; the versioned table may be a changelog (a table of a CDC format): a version
 * is valid from its rowtime until the next one, and a deletion ends it. Insert-only out.
 */
public final class StreamPhysicalTemporalJoin extends TimeBoundedJoin {

    private final int periodField;

    /** @param periodField the left field {@code FOR SYSTEM_TIME AS OF} names, or -1 when it is an expression */
    public StreamPhysicalTemporalJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right,
                                      RexNode condition, JoinRelType joinType, int periodField) {
        super(cluster, traits, left, right, condition, joinType);
        this.periodField = periodField;
    }

    @Override
    public Join copy(RelTraitSet traitSet, RexNode conditionExpr, RelNode left, RelNode right,
                     JoinRelType joinType, boolean semiJoinDone) {
        return new StreamPhysicalTemporalJoin(getCluster(), traitSet, left, right, conditionExpr, joinType,
                periodField);
    }

    @Override
    public ModifyKindSet acceptedInputKinds(int input) {
        return input == 1 ? ModifyKindSet.ALL : ModifyKindSet.INSERT_ONLY;
    }

    /** A changelog of versions needs no -U: an update's +U is the version valid from its time. */
    @Override
    public UpdateKind inputUpdateKind(UpdateKind required) {
        return UpdateKind.ONLY_UPDATE_AFTER;
    }

    /** The left field the period names, or -1. */
    public int periodField() {
        return periodField;
    }

    /** Whether the period is an event-time attribute, a processing-time one, or neither. */
    public Lineage.Time periodTime() {
        return periodField < 0 ? Lineage.Time.NONE : Lineage.time(getLeft(), periodField);
    }

    /** The right side's event-time attribute (its table's rowtime), or -1. */
    public int versionTimeField() {
        for (int i = 0; i < getRight().getRowType().getFieldCount(); i++) {
            if (Lineage.time(getRight(), i) == Lineage.Time.EVENT) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public RexNode residual() {
        return joinInfo().getRemaining(getCluster().getRexBuilder());
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public String describe() {
        String period = periodField < 0 ? "?" : getLeft().getRowType().getFieldNames().get(periodField);
        return describe("TemporalJoin", ", period=[" + period + "]");
    }
}
