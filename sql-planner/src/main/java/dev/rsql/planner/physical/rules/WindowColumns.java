package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.Lineage;
import org.apache.calcite.rel.core.Aggregate;

/** Whether a GROUP BY groups by window columns, which tells window aggregations from group aggregations. */
final class WindowColumns {

    private WindowColumns() {
    }

    static boolean groupsByWindow(Aggregate agg) {
        for (int g : agg.getGroupSet()) {
            if (Lineage.window(agg.getInput(), g) != Lineage.WindowColumn.NONE) {
                return true;
            }
        }
        return false;
    }
}
