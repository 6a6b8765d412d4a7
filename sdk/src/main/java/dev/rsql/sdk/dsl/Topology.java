package dev.rsql.sdk.dsl;

import dev.rsql.planner.EmbeddedPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.graph.JobGraph;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    /**
     * Asks the connector of every source and sink whether its table opens as declared with these engine settings (the
     * job's own parameters override them, as when it runs), so that a missing or malformed option fails before the job
     * starts; returns warnings about options that have no effect.
     *
     * @throws dev.rsql.planner.PlanningException naming the table and the option
     */
    public List<String> validate(Map<String, String> engineSettings, ClassLoader classLoader) {
        Map<String, String> settings = new LinkedHashMap<>(engineSettings);
        settings.putAll(graph.parameters().asMap());
        return EmbeddedPlanner.validate(graph, new Options(settings), classLoader);
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
