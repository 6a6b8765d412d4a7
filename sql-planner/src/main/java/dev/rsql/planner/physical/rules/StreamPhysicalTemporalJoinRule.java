package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.StreamPhysicalTemporalJoin;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Snapshot;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;

/**
 * {@code JOIN t FOR SYSTEM_TIME AS OF left.time ON ...}, which Calcite makes a correlate over a filtered snapshot of
 * {@code t}, becomes a {@link StreamPhysicalTemporalJoin} of the left side and {@code t} on the ON condition. Whether
 * it can run (an event-time period and a versioned table) is the translator's check, with the statement's position.
 */
public final class StreamPhysicalTemporalJoinRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalTemporalJoinRule", LogicalCorrelate.class,
            c -> snapshot(StreamPhysicalCorrelateRule.unwrap(c.getRight())) != null,
            StreamPhysicalTemporalJoinRule::new);

    /** Creates a StreamPhysicalTemporalJoinRule. */
    private StreamPhysicalTemporalJoinRule(PhysicalRuleConfig config) {
        super(config);
    }

    /** The snapshot under the correlate's right side (itself, or under a filter or a filtering calc), or null. */
    static Snapshot snapshot(RelNode right) {
        if (right instanceof Snapshot) {
            return (Snapshot) right;
        }
        if (right instanceof Filter || right instanceof Calc && isFilterOnly(((Calc) right).getProgram())) {
            RelNode input = StreamPhysicalCorrelateRule.unwrap(right.getInput(0));
            return input instanceof Snapshot ? (Snapshot) input : null;
        }
        return null;
    }

    /** A calc that projects its input's fields unchanged, in order: only its condition matters. */
    private static boolean isFilterOnly(RexProgram program) {
        if (program.getProjectList().size() != program.getInputRowType().getFieldCount()) {
            return false;
        }
        for (int i = 0; i < program.getProjectList().size(); i++) {
            RexNode e = program.expandLocalRef(program.getProjectList().get(i));
            if (!(e instanceof RexInputRef) || ((RexInputRef) e).getIndex() != i) {
                return false;
            }
        }
        return true;
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalCorrelate c = (LogicalCorrelate) rel;
        RelNode right = StreamPhysicalCorrelateRule.unwrap(c.getRight());
        Snapshot snapshot = snapshot(right);
        RexNode condition = null;
        if (right instanceof Filter) {
            condition = ((Filter) right).getCondition();
        } else if (right instanceof Calc && ((Calc) right).getProgram().getCondition() != null) {
            RexProgram p = ((Calc) right).getProgram();
            condition = p.expandLocalRef(p.getCondition());
        }
        RexBuilder rex = rel.getCluster().getRexBuilder();
        RelNode left = c.getLeft();
        int leftCount = left.getRowType().getFieldCount();
        RexNode joinCondition = condition == null ? rex.makeLiteral(true)
                : condition.accept(new Decorrelate(rex, c.getCorrelationId(), left, leftCount));
        RexNode period = snapshot.getPeriod();
        int periodField = period instanceof RexFieldAccess
                && ((RexFieldAccess) period).getReferenceExpr() instanceof RexCorrelVariable
                ? ((RexFieldAccess) period).getField().getIndex() : -1;
        return new StreamPhysicalTemporalJoin(rel.getCluster(), rel.getTraitSet(), left, snapshot.getInput(),
                joinCondition, c.getJoinType(), periodField);
    }

    /** The ON condition over the joined row: left fields for the correlation variable, then the table's fields. */
    private static final class Decorrelate extends RexShuttle {
        private final RexBuilder rex;
        private final CorrelationId id;
        private final RelNode left;
        private final int leftCount;

        Decorrelate(RexBuilder rex, CorrelationId id, RelNode left, int leftCount) {
            this.rex = rex;
            this.id = id;
            this.left = left;
            this.leftCount = leftCount;
        }

        @Override
        public RexNode visitInputRef(RexInputRef ref) {
            return new RexInputRef(ref.getIndex() + leftCount, ref.getType());
        }

        @Override
        public RexNode visitFieldAccess(RexFieldAccess access) {
            if (access.getReferenceExpr() instanceof RexCorrelVariable
                    && ((RexCorrelVariable) access.getReferenceExpr()).id.equals(id)) {
                return rex.makeInputRef(left, access.getField().getIndex());
            }
            return super.visitFieldAccess(access);
        }
    }
}
