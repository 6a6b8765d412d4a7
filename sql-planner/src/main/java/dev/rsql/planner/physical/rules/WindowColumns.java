package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.Lineage;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.TableFunctionScan;

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

    /** The window table function the aggregation's windows come from. */
    static TableFunctionScan scan(Aggregate agg, int field) {
        return Lineage.windowOrigin(agg.getInput(), field).scan();
    }
}
