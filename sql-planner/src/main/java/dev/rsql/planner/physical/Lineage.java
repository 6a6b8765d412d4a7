package dev.rsql.planner.physical;

import dev.rsql.planner.calcite.WatermarkAssigner;
import dev.rsql.planner.functions.RsqlOperatorTable;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlWindowTableFunction;

/**
 * Where a field of a plan comes from, as far as streaming cares: whether it is a time attribute (the event time of a
 * table with a WATERMARK, or PROCTIME()), and whether it is a window column added by a window table function.
 * Follows fields unchanged through calcs, filters, exchanges, unions and group keys, in logical and physical plans.
 */
public final class Lineage {

    public enum Time { EVENT, PROC, NONE }

    public enum WindowColumn { START, END, TIME, NONE }

    private Lineage() {
    }

    private static RelNode unwrap(RelNode rel) {
        return rel instanceof HepRelVertex ? ((HepRelVertex) rel).getCurrentRel() : rel;
    }

    /** The input field a field passes through unchanged, or null when it is computed. */
    private static Traced passThrough(RelNode rel, int field) {
        if (rel instanceof Calc) {
            Calc c = (Calc) rel;
            return new Traced(unwrap(c.getInput()), c.getProgram().expandLocalRef(c.getProgram().getProjectList().get(field)));
        }
        if (rel instanceof Project) {
            Project p = (Project) rel;
            return new Traced(unwrap(p.getInput()), p.getProjects().get(field));
        }
        if ((rel instanceof Window || rel instanceof StreamPhysicalOverAggregate)
                && field < rel.getInput(0).getRowType().getFieldCount()) {
            // OVER windows append their aggregates to the fields of their input
            return new Traced(unwrap(rel.getInput(0)), new RexInputRef(field, rel.getRowType().getFieldList().get(field).getType()));
        }
        if (rel instanceof Filter || rel instanceof WatermarkAssigner || rel instanceof StreamPhysicalWatermarkAssigner
                || rel instanceof StreamPhysicalExchange) {
            return new Traced(unwrap(rel.getInput(0)), new RexInputRef(field, rel.getRowType().getFieldList().get(field).getType()));
        }
        return null;
    }

    private record Traced(RelNode input, RexNode expr) {
    }

    public static Time time(RelNode node, int field) {
        RelNode rel = unwrap(node);
        if (rel instanceof WatermarkAssigner && ((WatermarkAssigner) rel).rowtimeField() == field
                || rel instanceof StreamPhysicalWatermarkAssigner
                && ((StreamPhysicalWatermarkAssigner) rel).rowtimeField() == field) {
            return Time.EVENT;
        }
        Traced t = passThrough(rel, field);
        if (t != null) {
            return timeOf(t.input(), t.expr());
        }
        if (rel instanceof Union) {
            Time kind = null;
            for (RelNode in : rel.getInputs()) {
                Time k = time(in, field);
                if (kind != null && k != kind) {
                    return Time.NONE;
                }
                kind = k;
            }
            return kind;
        }
        if (rel instanceof TableFunctionScan && isWindow((TableFunctionScan) rel)) {
            TableFunctionScan tvf = (TableFunctionScan) rel;
            int n = tvf.getInput(0).getRowType().getFieldCount();
            if (field < n) {
                return time(tvf.getInput(0), field);
            }
            return field == n + 2 ? time(tvf.getInput(0), timeField(tvf)) : Time.NONE;
        }
        if (rel instanceof Aggregate) {
            Aggregate a = (Aggregate) rel;
            return field < a.getGroupCount() ? time(a.getInput(), a.getGroupSet().nth(field)) : Time.NONE;
        }
        // Interval joins keep both sides' time attributes (their output watermark is held back); temporal joins keep
        // the left side's, as in Flink.
        if (rel instanceof StreamPhysicalIntervalJoin || rel instanceof StreamPhysicalTemporalJoin) {
            int leftCount = rel.getInput(0).getRowType().getFieldCount();
            return field < leftCount ? time(rel.getInput(0), field)
                    : rel instanceof StreamPhysicalIntervalJoin ? time(rel.getInput(1), field - leftCount) : Time.NONE;
        }
        return Time.NONE;
    }

    /** A column of a table a field is read from unchanged. */
    public record Column(RelOptTable table, int index) {
    }

    /** The table column a field passes through unchanged from, or null. */
    public static Column column(RelNode node, int field) {
        RelNode rel = unwrap(node);
        if (rel instanceof TableScan) {
            return new Column(rel.getTable(), field);
        }
        Traced t = passThrough(rel, field);
        return t != null && t.expr() instanceof RexInputRef ? column(t.input(), ((RexInputRef) t.expr()).getIndex())
                : null;
    }

    private static Time timeOf(RelNode input, RexNode e) {
        if (e instanceof RexInputRef) {
            return time(input, ((RexInputRef) e).getIndex());
        }
        if (e instanceof RexCall) {
            RexCall call = (RexCall) e;
            if (call.getOperator() == RsqlOperatorTable.PROCTIME) {
                return Time.PROC;
            }
            if (call.getKind() == SqlKind.CAST) {
                return timeOf(input, call.getOperands().get(0));
            }
        }
        return Time.NONE;
    }

    public static WindowColumn window(RelNode node, int field) {
        RelNode rel = unwrap(node);
        Traced t = passThrough(rel, field);
        if (t != null) {
            return t.expr() instanceof RexInputRef ? window(t.input(), ((RexInputRef) t.expr()).getIndex())
                    : WindowColumn.NONE;
        }
        if (rel instanceof TableFunctionScan && isWindow((TableFunctionScan) rel)) {
            int n = rel.getInput(0).getRowType().getFieldCount();
            return field == n ? WindowColumn.START : field == n + 1 ? WindowColumn.END
                    : field == n + 2 ? WindowColumn.TIME : WindowColumn.NONE;
        }
        return WindowColumn.NONE;
    }

    /** The window table function a window column comes from, or null. */
    public static TableFunctionScan windowScan(RelNode node, int field) {
        RelNode rel = unwrap(node);
        Traced t = passThrough(rel, field);
        if (t != null) {
            return t.expr() instanceof RexInputRef ? windowScan(t.input(), ((RexInputRef) t.expr()).getIndex()) : null;
        }
        return rel instanceof TableFunctionScan && isWindow((TableFunctionScan) rel) ? (TableFunctionScan) rel : null;
    }

    /** A window column and the window table function it comes from. */
    public record WindowOrigin(TableFunctionScan scan, WindowColumn column) {
    }

    /**
     * The window column a field is, followed like {@link #window} and also through group keys of aggregations (a
     * window aggregation keeps its windows' columns, which a window join can join on), or null.
     */
    public static WindowOrigin windowOrigin(RelNode node, int field) {
        RelNode rel = unwrap(node);
        if (rel instanceof Aggregate) {
            Aggregate a = (Aggregate) rel;
            return field < a.getGroupCount() ? windowOrigin(a.getInput(), a.getGroupSet().nth(field)) : null;
        }
        Traced t = passThrough(rel, field);
        if (t != null) {
            return t.expr() instanceof RexInputRef ? windowOrigin(t.input(), ((RexInputRef) t.expr()).getIndex())
                    : null;
        }
        WindowColumn c = window(rel, field);
        return c == WindowColumn.NONE ? null : new WindowOrigin((TableFunctionScan) rel, c);
    }

    public static boolean isWindow(TableFunctionScan scan) {
        return scan.getCall() instanceof RexCall
                && ((RexCall) scan.getCall()).getOperator() instanceof SqlWindowTableFunction;
    }

    /** The time column a window table function's DESCRIPTOR names, as an index into its input. */
    public static int timeField(TableFunctionScan scan) {
        RexCall descriptor = (RexCall) ((RexCall) scan.getCall()).getOperands().get(0);
        return ((RexInputRef) descriptor.getOperands().get(0)).getIndex();
    }
}
