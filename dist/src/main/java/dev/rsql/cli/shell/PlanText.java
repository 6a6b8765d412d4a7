package dev.rsql.cli.shell;

import dev.rsql.planner.PlannedJob;

/** What {@code rsql explain} and the shell's EXPLAIN print: the operator graph, then each INSERT's physical plan. */
public final class PlanText {

    private PlanText() {
    }

    public static String of(PlannedJob job) {
        StringBuilder sb = new StringBuilder(job.graph().explain());
        job.physicalPlans().forEach(p -> sb.append("\nPhysical plan\n").append(p));
        return sb.toString();
    }
}
