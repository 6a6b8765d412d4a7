package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.Lineage;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalCalc;
import org.apache.calcite.rel.logical.LogicalWindow;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A TopN as Flink's FlinkLogicalRankRule recognises it: a calc whose condition bounds the rank column of a window
 * computing only {@code ROW_NUMBER()}, {@code RANK()} or {@code DENSE_RANK()} over one partition and order, e.g.
 * {@code WHERE rn <= 3}, {@code rn = 1}, {@code rn BETWEEN 2 AND 5}. The rank, deduplicate and window variants'
 * rules share it, so that each form is converted by exactly one of them.
 *
 * @param window the window computing the rank
 * @param function ROW_NUMBER, RANK or DENSE_RANK
 * @param partitionKeys input fields of the PARTITION BY
 * @param order the ORDER BY
 * @param rankStart first rank kept (from 1)
 * @param rankEnd last rank kept
 * @param rankReferenced whether the calc above still reads the rank column (then the rank node outputs it)
 * @param projects the calc's projections, over the window's row type
 * @param remaining the calc's condition without the bounds on the rank, or null
 */
public record RankPattern(LogicalWindow window, SqlKind function, ImmutableBitSet partitionKeys, RelCollation order,
                          long rankStart, long rankEnd, boolean rankReferenced, List<RexNode> projects,
                          RexNode remaining) {

    private static final Set<SqlKind> RANKS = Set.of(SqlKind.ROW_NUMBER, SqlKind.RANK, SqlKind.DENSE_RANK);

    /** The rank field: the window's only computed column, after the input's fields. */
    public int rankField() {
        return window.getInput().getRowType().getFieldCount();
    }

    /** Whether the calc above the rank node does anything (else it is dropped). */
    public boolean needsCalc() {
        if (remaining != null || projects.size() != rankField() + (rankReferenced ? 1 : 0)) {
            return true;
        }
        for (int i = 0; i < projects.size(); i++) {
            if (!(projects.get(i) instanceof RexInputRef) || ((RexInputRef) projects.get(i)).getIndex() != i) {
                return true;
            }
        }
        return false;
    }

    /** A deduplication: which time field it orders by, of which kind, and whether it keeps the last row. */
    public record Deduplication(int timeField, boolean eventTime, boolean keepLast) {
    }

    /**
     * As Flink's canConvertToDeduplicate: ROW_NUMBER kept at 1 without the rank column, ordered by one time
     * attribute; empty for any other TopN. Partitions by window columns are window deduplications, not this.
     */
    public Optional<Deduplication> deduplication() {
        if (function != SqlKind.ROW_NUMBER || rankStart != 1 || rankEnd != 1 || rankReferenced
                || order.getFieldCollations().size() != 1 || partitionsByWindow()) {
            return Optional.empty();
        }
        RelFieldCollation f = order.getFieldCollations().get(0);
        Lineage.Time time = Lineage.time(window.getInput(), f.getFieldIndex());
        if (time == Lineage.Time.NONE) {
            return Optional.empty();
        }
        return Optional.of(new Deduplication(f.getFieldIndex(), time == Lineage.Time.EVENT,
                f.getDirection().isDescending()));
    }

    /**
     * The partition field that is window_end of an event-time window table function whose window_start is
     * partitioned by too (a window TopN), or -1.
     */
    public int windowEnd() {
        if (!partitionsByWindow()) {
            return -1;
        }
        for (int k : partitionKeys) {
            if (Lineage.window(window.getInput(), k) == Lineage.WindowColumn.END) {
                TableFunctionScan scan = Lineage.windowScan(window.getInput(), k);
                if (scan != null && Lineage.time(scan.getInput(0), Lineage.timeField(scan)) == Lineage.Time.EVENT) {
                    return k;
                }
            }
        }
        return -1;
    }

    /** Whether the partition includes window_start and window_end of a window table function. */
    public boolean partitionsByWindow() {
        boolean start = false;
        boolean end = false;
        for (int k : partitionKeys) {
            Lineage.WindowColumn c = Lineage.window(window.getInput(), k);
            start |= c == Lineage.WindowColumn.START;
            end |= c == Lineage.WindowColumn.END;
        }
        return start && end;
    }

    public static Optional<RankPattern> match(LogicalCalc calc) {
        RelNode input = StreamPhysicalCorrelateRule.unwrap(calc.getInput());
        if (!(input instanceof LogicalWindow)) {
            return Optional.empty();
        }
        LogicalWindow window = (LogicalWindow) input;
        if (window.groups.size() != 1 || window.groups.get(0).aggCalls.size() != 1
                || !RANKS.contains(window.groups.get(0).aggCalls.get(0).getOperator().getKind())) {
            return Optional.empty();
        }
        Window.Group group = window.groups.get(0);
        RexProgram program = calc.getProgram();
        if (program.getCondition() == null) {
            return Optional.empty();
        }
        RexBuilder rex = calc.getCluster().getRexBuilder();
        int rankField = window.getInput().getRowType().getFieldCount();
        RexNode condition = RexUtil.expandSearch(rex, null, program.expandLocalRef(program.getCondition()));
        long start = 1;
        long end = Long.MAX_VALUE;
        List<RexNode> rest = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(condition)) {
            long[] bound = bound(c, rankField);
            if (bound == null) {
                rest.add(c);
            } else {
                start = Math.max(start, bound[0]);
                end = Math.min(end, bound[1]);
            }
        }
        if (end == Long.MAX_VALUE || end < start) {
            return Optional.empty();
        }
        List<RexNode> projects = new ArrayList<>();
        program.getProjectList().forEach(p -> projects.add(program.expandLocalRef(p)));
        RexNode remaining = rest.isEmpty() ? null : RexUtil.composeConjunction(rex, rest);
        List<RexNode> used = new ArrayList<>(projects);
        if (remaining != null) {
            used.add(remaining);
        }
        boolean referenced = RelOptUtil.InputFinder.bits(used, null).get(rankField);
        return Optional.of(new RankPattern(window, group.aggCalls.get(0).getOperator().getKind(), group.keys,
                group.orderKeys, start, end, referenced, projects, remaining));
    }

    /** {@code [lo, hi]} that a conjunct bounds the rank to, or null when it is not such a bound. */
    private static long[] bound(RexNode c, int rankField) {
        if (!(c instanceof RexCall) || ((RexCall) c).getOperands().size() != 2) {
            return null;
        }
        RexCall call = (RexCall) c;
        RexNode a = stripCast(call.getOperands().get(0));
        RexNode b = stripCast(call.getOperands().get(1));
        SqlKind kind = call.getKind();
        if (b instanceof RexInputRef && a instanceof RexLiteral) {
            RexNode t = a;
            a = b;
            b = t;
            kind = kind.reverse();
        }
        if (!(a instanceof RexInputRef) || ((RexInputRef) a).getIndex() != rankField || !(b instanceof RexLiteral)) {
            return null;
        }
        BigDecimal v = ((RexLiteral) b).getValueAs(BigDecimal.class);
        if (v == null) {
            return null;
        }
        long floor = v.setScale(0, RoundingMode.FLOOR).longValueExact();
        long ceil = v.setScale(0, RoundingMode.CEILING).longValueExact();
        switch (kind) {
            case LESS_THAN_OR_EQUAL:
                return new long[] {1, floor};
            case LESS_THAN:
                return new long[] {1, ceil - 1};
            case GREATER_THAN_OR_EQUAL:
                return new long[] {ceil, Long.MAX_VALUE};
            case GREATER_THAN:
                return new long[] {floor + 1, Long.MAX_VALUE};
            case EQUALS:
                return floor == ceil ? new long[] {floor, floor} : new long[] {1, 0};
            default:
                return null;
        }
    }

    private static RexNode stripCast(RexNode e) {
        return e.getKind() == SqlKind.CAST ? ((RexCall) e).getOperands().get(0) : e;
    }

    /** The ORDER BY's fields with their directions, as {@link RelFieldCollation}s. */
    public List<RelFieldCollation> orderFields() {
        return order.getFieldCollations();
    }
}
