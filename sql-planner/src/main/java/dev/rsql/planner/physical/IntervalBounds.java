package dev.rsql.planner.physical;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;

import java.util.ArrayList;
import java.util.List;

/**
 * The time bounds of an interval join, as Flink's IntervalJoinUtil extracts them: comparisons of a time attribute of
 * each side, each plus or minus a constant interval ({@code b.ts BETWEEN a.ts - INTERVAL '5' SECOND AND a.ts +
 * INTERVAL '5' SECOND}, or pairs of {@code >=}/{@code >}/{@code <=}/{@code <}), both event time or both processing
 * time, giving {@code lower <= leftTime - rightTime <= upper} in milliseconds. The other non-equal conjuncts are the
 * residual condition.
 *
 * @param leftTime the time attribute of the left input
 * @param rightTime the time attribute of the right input (an index into the right input)
 * @param residual the conditions besides the equal keys and the bounds, over the joined row
 */
public record IntervalBounds(boolean eventTime, int leftTime, int rightTime, long lower, long upper,
                             RexNode residual) {

    /** A time attribute field of the joined row plus a constant, in milliseconds. */
    private record Term(int field, long offset) {
    }

    /** The bounds of the join, or null when its condition does not bound one side's time by the other's. */
    public static IntervalBounds of(Join join) {
        int leftCount = join.getLeft().getRowType().getFieldCount();
        RexBuilder rex = join.getCluster().getRexBuilder();
        JoinInfo info = join.analyzeCondition();
        List<RexNode> rest = new ArrayList<>();
        Integer leftTime = null;
        Integer rightTime = null;
        long lower = Long.MIN_VALUE;
        long upper = Long.MAX_VALUE;
        for (RexNode c : RelOptUtil.conjunctions(info.getRemaining(rex))) {
            Term a = null;
            Term b = null;
            if (c instanceof RexCall && ((RexCall) c).getOperands().size() == 2 && isInequality(c.getKind())) {
                a = term(((RexCall) c).getOperands().get(0));
                b = term(((RexCall) c).getOperands().get(1));
            }
            if (a == null || b == null || (a.field() < leftCount) == (b.field() < leftCount)) {
                rest.add(c);
                continue;
            }
            // Both sides as: leftTime - rightTime <op> constant.
            SqlKind op = c.getKind();
            Term l = a.field() < leftCount ? a : b;
            Term r = a.field() < leftCount ? b : a;
            if (l != a) {
                op = op.reverse();
            }
            int lf = l.field();
            int rf = r.field() - leftCount;
            Lineage.Time lt = Lineage.time(join.getLeft(), lf);
            Lineage.Time rt = Lineage.time(join.getRight(), rf);
            if (lt == Lineage.Time.NONE || lt != rt || leftTime != null && (leftTime != lf || rightTime != rf)) {
                rest.add(c);
                continue;
            }
            leftTime = lf;
            rightTime = rf;
            long bound = r.offset() - l.offset();
            switch (op) {
                case GREATER_THAN_OR_EQUAL -> lower = Math.max(lower, bound);
                case GREATER_THAN -> lower = Math.max(lower, bound + 1);
                case LESS_THAN_OR_EQUAL -> upper = Math.min(upper, bound);
                default -> upper = Math.min(upper, bound - 1);
            }
        }
        if (leftTime == null || lower == Long.MIN_VALUE || upper == Long.MAX_VALUE) {
            return null;
        }
        return new IntervalBounds(Lineage.time(join.getLeft(), leftTime) == Lineage.Time.EVENT, leftTime, rightTime,
                lower, upper, RexUtil.composeConjunction(rex, rest));
    }

    private static boolean isInequality(SqlKind kind) {
        return kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL || kind == SqlKind.LESS_THAN
                || kind == SqlKind.LESS_THAN_OR_EQUAL;
    }

    /** {@code $i}, {@code $i + interval} or {@code $i - interval}, else null. */
    private static Term term(RexNode e) {
        if (e instanceof RexInputRef) {
            return new Term(((RexInputRef) e).getIndex(), 0);
        }
        if (e.getKind() == SqlKind.CAST) {
            return term(((RexCall) e).getOperands().get(0));
        }
        if ((e.getKind() == SqlKind.PLUS || e.getKind() == SqlKind.MINUS) && e instanceof RexCall) {
            List<RexNode> ops = ((RexCall) e).getOperands();
            Term base = term(ops.get(0));
            Long offset = interval(ops.get(1));
            if (base == null && e.getKind() == SqlKind.PLUS) {
                base = term(ops.get(1));
                offset = interval(ops.get(0));
            }
            if (base != null && offset != null) {
                return new Term(base.field(), base.offset() + (e.getKind() == SqlKind.PLUS ? offset : -offset));
            }
        }
        return null;
    }

    /** A constant day-time interval in milliseconds, else null. */
    private static Long interval(RexNode e) {
        if (e instanceof RexLiteral && e.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME) {
            return ((RexLiteral) e).getValueAs(Long.class);
        }
        return null;
    }
}
