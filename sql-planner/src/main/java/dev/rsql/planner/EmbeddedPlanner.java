package dev.rsql.planner;

import dev.rsql.planner.catalog.ScriptCatalog;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JobGraph;

import java.util.List;

/**
 * Plans SQL into a graph that the caller builds too (the Java DSL): tables can be existing graph nodes
 * ({@link #registerTable}), a query's result is handed back as a graph node ({@link #query}) instead of ending in a
 * sink, and DDL, SET and INSERT statements ({@link #execute}) work as in a script. Call {@link #finish} once before the
 * graph is built: it translates the INSERTs and compiles the generated code.
 */
public final class EmbeddedPlanner {

    private final GraphBuilder builder;
    private final ScriptPlanner.Planning planning;

    public EmbeddedPlanner(PlannerContext context, String jobName, GraphBuilder builder) {
        this.builder = builder;
        this.planning = new ScriptPlanner(context).embedded(jobName);
    }

    /** Runs CREATE TABLE / VIEW / FUNCTION, SET and INSERT INTO statements. */
    public void execute(String statements) {
        planning.execute(statements);
    }

    /**
     * A table named {@code name} whose rows are {@code stream}'s; {@code rowtime} (or null) is its event-time column,
     * with watermarks {@code watermarkDelayMillis} behind it, as the stream's own.
     */
    public void registerTable(String name, GraphBuilder.Stream stream, String rowtime, long watermarkDelayMillis) {
        planning.bindTable(name, stream, rowtime, watermarkDelayMillis);
    }

    /** The result of a SELECT as a stream of the graph; it carries updates and deletes when the query has them. */
    public GraphBuilder.Stream query(String select) {
        return planning.query(select, builder);
    }

    /**
     * Asks the connector of every table {@code graph} reads or writes whether it opens as declared with the engine
     * settings {@code config}, so that a missing or malformed option fails before the job starts (a
     * {@link PlanningException}); returns the warnings about options with no effect.
     */
    public static List<String> validate(JobGraph graph, Options config, ClassLoader classLoader) {
        return new ConnectorValidation(graph.name(), config, classLoader, new ScriptCatalog()).validate(graph);
    }

    /** Translates the INSERTs executed so far and compiles the generated code of all statements. */
    public void finish() {
        planning.translateInserts(builder);
        planning.compile();
    }
}
