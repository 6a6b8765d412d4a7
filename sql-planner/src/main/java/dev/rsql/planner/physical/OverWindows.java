package dev.rsql.planner.physical;

import dev.rsql.planner.PlanningException;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.rex.RexWindowExclusion;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The OVER windows of aggregate functions that a stream can compute, as in Flink: ordered by one time attribute
 * ascending, ending at CURRENT ROW, reaching back UNBOUNDED or a constant number of rows or interval. Windows of
 * ranking and offset functions (ROW_NUMBER, RANK, LAG ...) are not aggregations and are left to other rules.
 */
public final class OverWindows {

    private static final Set<SqlKind> NOT_AGGREGATES = EnumSet.of(SqlKind.ROW_NUMBER, SqlKind.RANK,
            SqlKind.DENSE_RANK, SqlKind.PERCENT_RANK, SqlKind.CUME_DIST, SqlKind.NTILE, SqlKind.LEAD, SqlKind.LAG,
            SqlKind.NTH_VALUE);

    private OverWindows() {
    }

    /** True when every call of the window is an aggregate function (COUNT, SUM, a UDAF ...). */
    public static boolean aggregatesOnly(Window window) {
        return window.groups.stream().flatMap(g -> g.aggCalls.stream())
                .noneMatch(c -> NOT_AGGREGATES.contains(c.getOperator().getKind()));
    }

    private static boolean aggregatesAny(Window window) {
        return window.groups.stream().flatMap(g -> g.aggCalls.stream())
                .anyMatch(c -> !NOT_AGGREGATES.contains(c.getOperator().getKind()));
    }

    /** True when every group of an aggregate window can be computed on a stream. */
    public static boolean supported(Window window) {
        return aggregatesOnly(window) && window.groups.stream().allMatch(g -> problem(window, g) == null);
    }

    /**
     * Throws, at the OVER clause's position in the statement where it can be found (else the statement's), for the
     * first aggregate OVER window of the plan that a stream cannot compute.
     */
    public static void check(RelNode rel, SqlNode statement) {
        RelNode node = rel instanceof HepRelVertex ? ((HepRelVertex) rel).getCurrentRel() : rel;
        if (node instanceof Window && aggregatesAny((Window) node)) {
            Window w = (Window) node;
            if (!aggregatesOnly(w)) {
                throw new PlanningException(statement.getParserPosition(), "aggregate functions and ranking "
                        + "functions (ROW_NUMBER, RANK, LAG ...) over the same window are not supported; compute them"
                        + " in separate queries or views");
            }
            for (Window.Group g : w.groups) {
                Problem p = problem(w, g);
                if (p != null) {
                    throw new PlanningException(position(statement, p.column()), p.message());
                }
            }
        }
        node.getInputs().forEach(in -> check(in, statement));
    }

    /** Why a group cannot run, and the ORDER BY column to blame (null for none). */
    private record Problem(String message, String column) {
    }

    private static Problem problem(Window window, Window.Group g) {
        RelNode input = window.getInput();
        List<RelFieldCollation> order = g.orderKeys.getFieldCollations();
        if (order.size() != 1) {
            return new Problem("OVER windows' ordering in stream mode must be defined on a time attribute: ORDER BY "
                    + "exactly one column with a WATERMARK, or one computed AS PROCTIME()", null);
        }
        int field = order.get(0).getFieldIndex();
        String column = input.getRowType().getFieldNames().get(field);
        if (Lineage.time(input, field) == Lineage.Time.NONE) {
            return new Problem("OVER windows' ordering in stream mode must be defined on a time attribute (a column"
                    + " with a WATERMARK, or one computed AS PROCTIME()); " + column + " is neither", column);
        }
        if (order.get(0).getDirection() != RelFieldCollation.Direction.ASCENDING) {
            return new Problem("OVER windows' ordering in stream mode must be ascending on time: ORDER BY " + column
                    + " DESC is not supported", column);
        }
        if (!g.upperBound.isCurrentRow()) {
            return new Problem("OVER windows in stream mode must end at CURRENT ROW (FOLLOWING rows are not "
                    + "supported)", column);
        }
        if (g.lowerBound.isFollowing()) {
            return new Problem("OVER windows in stream mode must start at a PRECEDING row or the CURRENT ROW",
                    column);
        }
        if (g.exclude != RexWindowExclusion.EXCLUDE_NO_OTHER) {
            return new Problem("OVER windows with EXCLUDE are not supported", column);
        }
        int fields = input.getRowType().getFieldCount();
        for (Window.RexWinAggCall call : g.aggCalls) {
            for (RexNode operand : call.getOperands()) {
                if (!(operand instanceof RexInputRef) || ((RexInputRef) operand).getIndex() >= fields) {
                    return new Problem("the arguments of " + call.getOperator().getName() + " OVER (...) must be "
                            + "columns or expressions of the row, not constants", column);
                }
            }
        }
        return null;
    }

    /** How far a group's window reaches back: rows, or milliseconds for RANGE; {@code UNBOUNDED}: -1. */
    public static long preceding(Window window, Window.Group g) {
        RexWindowBound lower = g.lowerBound;
        if (lower.isUnbounded()) {
            return StreamPhysicalOverAggregate.UNBOUNDED;
        }
        if (lower.isCurrentRow()) {
            return 0;
        }
        RexNode offset = lower.getOffset();
        if (offset instanceof RexInputRef) {
            int constant = ((RexInputRef) offset).getIndex() - window.getInput().getRowType().getFieldCount();
            offset = window.constants.get(constant);
        }
        Long value = ((RexLiteral) offset).getValueAs(Long.class);
        return value == null ? 0 : value;
    }

    /** Where the OVER clause ordering by {@code column} is written (the first OVER clause if unknown). */
    private static SqlParserPos position(SqlNode statement, String column) {
        List<SqlWindow> windows = new ArrayList<>();
        collectWindows(statement, windows);
        for (SqlWindow w : windows) {
            for (SqlNode item : w.getOrderList()) {
                SqlNode e = item instanceof SqlBasicCall && item.getKind() == SqlKind.DESCENDING
                        ? ((SqlBasicCall) item).operand(0) : item;
                if (column != null && e instanceof SqlIdentifier && ((SqlIdentifier) e).names
                        .get(((SqlIdentifier) e).names.size() - 1).toLowerCase(Locale.ROOT)
                        .equals(column.toLowerCase(Locale.ROOT))) {
                    return item.getParserPosition();
                }
            }
        }
        return windows.isEmpty() ? statement.getParserPosition() : windows.get(0).getParserPosition();
    }

    private static void collectWindows(SqlNode node, List<SqlWindow> into) {
        if (node instanceof SqlWindow) {
            into.add((SqlWindow) node);
        }
        if (node instanceof SqlNodeList) {
            ((SqlNodeList) node).forEach(n -> collectWindows(n, into));
        } else if (node instanceof SqlCall) {
            for (SqlNode operand : ((SqlCall) node).getOperandList()) {
                if (operand != null) {
                    collectWindows(operand, into);
                }
            }
        }
    }
}
