package dev.rsql.sdk.dsl;

import dev.rsql.runtime.graph.JobGraph;

/**
 * A job built with the DSL (and SQL mixed in): the runtime's operator graph, ready to run in local or distributed mode
 * like a planned script. Every process of a distributed job builds it from the same code.
 */
public final class Topology {

    private final JobGraph graph;

    Topology(JobGraph graph) {
        this.graph = graph;
    }

    public String name() {
        return graph.name();
    }

    /** The operator graph the engine runs. */
    public JobGraph graph() {
        return graph;
    }

    /** The graph as EXPLAIN prints it: one line per node. */
    public String describe() {
        return graph.explain();
    }

    @Override
    public String toString() {
        return describe();
    }
}
