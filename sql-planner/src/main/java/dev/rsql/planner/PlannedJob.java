package dev.rsql.planner;

import dev.rsql.planner.catalog.ScriptCatalog;
import dev.rsql.runtime.graph.JobGraph;

/** The result of planning a script: the graph to run, the catalog it was built from, the generated code. */
public final class PlannedJob {

    private final JobGraph graph;
    private final ScriptCatalog catalog;
    private final String generatedSource;

    public PlannedJob(JobGraph graph, ScriptCatalog catalog, String generatedSource) {
        this.graph = graph;
        this.catalog = catalog;
        this.generatedSource = generatedSource;
    }

    public JobGraph graph() {
        return graph;
    }

    public ScriptCatalog catalog() {
        return catalog;
    }

    /** The Java source generated for the job's calc nodes (null when it has none). */
    public String generatedSource() {
        return generatedSource;
    }
}
