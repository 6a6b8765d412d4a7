package dev.rsql.planner;

import dev.rsql.planner.catalog.ScriptCatalog;
import dev.rsql.runtime.graph.JobGraph;

/**
 * The result of planning a script: the graph to run, the catalog it was built from, and the Java source generated
 * for its calc nodes (null when it has none).
 */
public record PlannedJob(JobGraph graph, ScriptCatalog catalog, String generatedSource) {
}
