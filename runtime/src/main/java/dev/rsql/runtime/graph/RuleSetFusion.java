package dev.rsql.runtime.graph;

import java.util.List;
import java.util.function.Supplier;

/**
 * Decides, when a {@link GraphBuilder} builds its graph, whether calcs reading one input run as a {@link RuleSetNode}
 * (the planner knows their conditions; the graph does not).
 */
public interface RuleSetFusion {

    /** How a rule set picks its candidate rules, and how EXPLAIN shows it. */
    record Selection(Supplier<? extends RuleSelector> selectors, String description) {
    }

    /**
     * The selection for these calcs (two or more, reading one input, none splitting updates, each feeding sinks
     * only), or null to leave them as calcs.
     */
    Selection fuse(List<CalcNode> calcs);
}
