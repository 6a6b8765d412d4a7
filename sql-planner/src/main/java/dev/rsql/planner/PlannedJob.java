package dev.rsql.planner;

import dev.rsql.planner.catalog.ScriptCatalog;
import dev.rsql.runtime.graph.JobGraph;

import java.util.List;

/**
 * The result of planning a script: the graph to run, the catalog it was built from, the Java source generated for its
 * calc nodes (null when it has none), and the optimised relational plan and the physical plan with its changelog of
 * each INSERT (for EXPLAIN), the warnings of planning (table options that have no effect), one line each, and the
 * conjuncts evaluated once per row for several INSERTs over a source (for EXPLAIN), one line each.
 */
public record PlannedJob(JobGraph graph, ScriptCatalog catalog, String generatedSource, List<String> relationalPlans,
                         List<String> physicalPlans, List<String> warnings, List<String> sharedPredicates) {

    /**
     * What {@code rsql explain}, the shell's EXPLAIN and the SDK's {@code explain} print: the operator graph, each
     * INSERT's physical plan, then the predicates several INSERTs share.
     */
    public String explain() {
        StringBuilder sb = new StringBuilder(graph.explain());
        physicalPlans.forEach(p -> sb.append("\nPhysical plan\n").append(p));
        if (!sharedPredicates.isEmpty()) {
            sb.append("\nShared predicates (evaluated once per row)\n");
            sharedPredicates.forEach(p -> sb.append("  ").append(p).append('\n'));
        }
        return sb.toString();
    }
}
