package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.Lineage;
import dev.rsql.planner.physical.StreamPhysicalExchange;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Exchange;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * Whether a GROUP BY groups by window columns, which tells window aggregations from group aggregations: columns of a
 * window table function, or both window_start and window_end kept by a window aggregation below (a cascaded window
 * aggregation, as Flink plans a GROUP BY window_start, window_end over a window aggregate's output).
 */
public final class WindowColumns {

    private WindowColumns() {
    }

    public static boolean groupsByWindow(Aggregate agg) {
        boolean start = false;
        boolean end = false;
        for (int g : agg.getGroupSet()) {
            if (Lineage.window(agg.getInput(), g) != Lineage.WindowColumn.NONE) {
                return true;
            }
            Lineage.WindowOrigin o = Lineage.windowOrigin(agg.getInput(), g);
            start |= o != null && o.column() == Lineage.WindowColumn.START;
            end |= o != null && o.column() == Lineage.WindowColumn.END;
        }
        return start && end;
    }

    /** Whether the aggregation groups by the windows of an aggregation below rather than of a table function. */
    static boolean isCascaded(Aggregate agg) {
        for (int g : agg.getGroupSet()) {
            if (Lineage.window(agg.getInput(), g) != Lineage.WindowColumn.NONE) {
                return false;
            }
        }
        return true;
    }

    /** Which window column a group field is (NONE for the other keys), directly or through a window aggregation. */
    static Lineage.WindowColumn column(Aggregate agg, int field) {
        Lineage.WindowOrigin o = Lineage.windowOrigin(agg.getInput(), field);
        return o == null ? Lineage.WindowColumn.NONE : o.column();
    }

    /**
     * Whether the window columns of {@code tvf} reach the aggregation only unchanged, through projections and filters
     * that do not use them, and are not aggregated: then the aggregation may see slices instead of windows.
     */
    static boolean onlyGroupedBy(Aggregate agg, TableFunctionScan tvf) {
        ImmutableBitSet windowFields = windowFields(agg.getInput(), tvf);
        if (windowFields == null) {
            return false;
        }
        for (AggregateCall call : agg.getAggCallList()) {
            if (call.getArgList().stream().anyMatch(windowFields::get) || call.filterArg >= 0
                    && windowFields.get(call.filterArg)) {
                return false;
            }
        }
        return true;
    }

    /** The fields of {@code node} that are the window columns of {@code tvf} unchanged, or null if they are used. */
    private static ImmutableBitSet windowFields(RelNode node, TableFunctionScan tvf) {
        RelNode rel = node instanceof HepRelVertex ? ((HepRelVertex) node).getCurrentRel() : node;
        if (rel == tvf) {
            int n = tvf.getInput(0).getRowType().getFieldCount();
            return ImmutableBitSet.of(n, n + 1, n + 2);
        }
        if (rel.getInputs().size() != 1) {
            return null;
        }
        ImmutableBitSet in = windowFields(rel.getInput(0), tvf);
        if (in == null) {
            return null;
        }
        if (rel instanceof Project) {
            return projected(((Project) rel).getProjects(), null, in);
        }
        if (rel instanceof Calc) {
            RexProgram program = ((Calc) rel).getProgram();
            List<RexNode> projects = program.getProjectList().stream().map(program::expandLocalRef).toList();
            RexNode condition = program.getCondition() == null ? null : program.expandLocalRef(program.getCondition());
            return projected(projects, condition, in);
        }
        if (rel instanceof Filter) {
            return uses(((Filter) rel).getCondition(), in) ? null : in;
        }
        return rel instanceof Exchange || rel instanceof StreamPhysicalExchange ? in : null;
    }

    private static ImmutableBitSet projected(List<RexNode> projects, RexNode condition, ImmutableBitSet windowFields) {
        if (condition != null && uses(condition, windowFields)) {
            return null;
        }
        ImmutableBitSet.Builder out = ImmutableBitSet.builder();
        for (int i = 0; i < projects.size(); i++) {
            RexNode e = projects.get(i);
            if (e instanceof RexInputRef && windowFields.get(((RexInputRef) e).getIndex())) {
                out.set(i);
            } else if (uses(e, windowFields)) {
                return null;
            }
        }
        return out.build();
    }

    private static boolean uses(RexNode e, ImmutableBitSet fields) {
        return RelOptUtil.InputFinder.bits(e).intersects(fields);
    }

    /** The window table function the aggregation's windows come from. */
    static TableFunctionScan scan(Aggregate agg, int field) {
        return Lineage.windowOrigin(agg.getInput(), field).scan();
    }
}
