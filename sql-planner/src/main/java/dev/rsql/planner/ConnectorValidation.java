package dev.rsql.planner;

import dev.rsql.runtime.connector.LookupCacheMode;
import dev.rsql.runtime.graph.GraphNode;
import dev.rsql.runtime.graph.LookupJoinNode;
import dev.rsql.runtime.lookup.LookupOptions;
import dev.rsql.planner.catalog.CatalogTable;
import dev.rsql.planner.catalog.ScriptCatalog;
import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.ConnectorRegistry;
import dev.rsql.runtime.connector.JobInfo;
import dev.rsql.runtime.exec.DefaultConnectorContext;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.SourceNode;
import dev.rsql.runtime.table.TableDescriptor;

import java.nio.file.Path;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Asks the connector of every table the job reads or writes whether the table can be opened as declared
 * ({@link ConnectorFactory#validateSource} / {@link ConnectorFactory#validateSink}), so that a missing or malformed
 * option fails planning with the option's position instead of failing the job when it starts.
 */
final class ConnectorValidation {

    private final ScriptCatalog catalog;
    private final ConnectorRegistry connectors;
    private final FormatRegistry formats;
    private final JobInfo job;

    /** @param config engine settings overridden by the script's SET values, as the running job sees them */
    ConnectorValidation(String jobName, Options config, ClassLoader classLoader, ScriptCatalog catalog) {
        this.catalog = catalog;
        this.connectors = new ConnectorRegistry(classLoader);
        this.formats = new FormatRegistry(classLoader);
        this.job = new PlanningJob(jobName, config, classLoader);
    }

    /**
     * Validates every table of the graph and returns one warning per table whose options include keys that neither
     * its connector nor its format read (e.g. rsqldb's {@code pullIntervalMs}): they have no effect.
     */
    List<String> validate(JobGraph graph) {
        Map<String, TableDescriptor> tables = new LinkedHashMap<>();
        for (SourceNode s : graph.sources()) {
            check(s.table(), true);
            tables.put(s.table().name(), s.table());
            if (s.deadLetterTable() != null) {
                check(s.deadLetterTable(), false);
                tables.put(s.deadLetterTable().name(), s.deadLetterTable());
            }
        }
        graph.sinks().forEach(s -> {
            check(s.table(), false);
            tables.put(s.table().name(), s.table());
        });
        for (GraphNode node : graph.nodes()) {
            if (node instanceof LookupJoinNode) {
                checkLookup(((LookupJoinNode) node).table());
            }
        }
        List<String> warnings = new ArrayList<>();
        for (TableDescriptor t : tables.values()) {
            Set<String> ignored = t.options().unusedKeys();
            if (!ignored.isEmpty()) {
                warnings.add("table " + t.name() + " (connector " + t.connector() + "): option"
                        + (ignored.size() == 1 ? " " : "s ") + String.join(", ", ignored) + " ignored (no effect)");
            }
        }
        return warnings;
    }

    /**
     * A table declared but not used yet (a shell's CREATE TABLE): its connector is installed and accepts the table
     * as a source, a sink or a dimension table; if none, the source's complaint is reported.
     */
    void validateDeclared(CatalogTable table) {
        TableDescriptor t = table.descriptor();
        try {
            check(t, true);
        } catch (PlanningException asSource) {
            for (Boolean use : new Boolean[] {false, null}) {
                try {
                    check(t, use);
                    return;
                } catch (PlanningException e) {
                    // try the next use
                }
            }
            throw asSource;
        }
    }

    /** A dimension table: its connector offers lookups, and its cache options parse. */
    private void checkLookup(TableDescriptor t) {
        CatalogTable table = catalog.table(t.name());
        try {
            LookupOptions.of(t.options(), LookupCacheMode.NONE);
        } catch (ConfigException e) {
            throw new PlanningException(position(table, e.option()), "table " + t.name() + ": "
                    + e.getMessage());
        }
        check(t, null);
    }

    /** Where the table declares an option; none for a table that is no statement's (a Java DSL source or sink). */
    private static SqlParserPos position(CatalogTable table, String option) {
        return table == null ? SqlParserPos.ZERO : table.optionPosition(option);
    }

    /** @param source true for a source, false for a sink, null for a dimension table */
    private void check(TableDescriptor t, Boolean source) {
        CatalogTable table = catalog.table(t.name());
        if (!connectors.contains(t.connector())) {
            throw new PlanningException(position(table, null), "table " + t.name() + ": connector '"
                    + t.connector() + "' is not available; installed: " + connectors.names()
                    + " (a jar in ext/ can add one)");
        }
        ConnectorFactory factory = connectors.get(t.connector());
        ConnectorContext context = new DefaultConnectorContext(t, job, formats);
        try {
            if (source == null) {
                factory.validateLookup(context);
            } else if (source) {
                factory.validateSource(context);
            } else {
                factory.validateSink(context);
            }
        } catch (ConfigException e) {
            // Connectors word their own messages and may quote a value that came from the environment.
            String message = t.options().redact(e.getMessage());
            if (!message.contains("table " + t.name())) {
                message = "table " + t.name() + ": " + message;
            }
            throw new PlanningException(position(table, e.option()), message);
        }
    }

    /** The job as connectors see it while it is planned: it has no instance running and no data directory yet. */
    private record PlanningJob(String name, Options config, ClassLoader classLoader) implements JobInfo {

        @Override
        public String instanceId() {
            return config.getOrDefault("planner", "instance.id");
        }

        @Override
        public Path dataDir() {
            throw new IllegalStateException("a connector's validation must not use the job's data directory");
        }
    }
}
