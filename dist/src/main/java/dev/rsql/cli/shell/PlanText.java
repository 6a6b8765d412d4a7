package dev.rsql.cli.shell;

import dev.rsql.planner.PlannedJob;

/**
 * What {@code rsql explain} and the shell's EXPLAIN print: the operator graph, each INSERT's physical plan, then the
 * predicates several INSERTs share.
 */
public final class PlanText {

    private PlanText() {
    }

    public static String of(PlannedJob job) {
        StringBuilder sb = new StringBuilder(job.graph().explain());
        job.physicalPlans().forEach(p -> sb.append("\nPhysical plan\n").append(p));
        if (!job.sharedPredicates().isEmpty()) {
            sb.append("\nShared predicates (evaluated once per row)\n");
            job.sharedPredicates().forEach(p -> sb.append("  ").append(p).append('\n'));
        }
        return sb.toString();
    }
}
