package dev.rsql.runtime.connector;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.format.FormatRegistry;

import java.util.Set;

/**
 * Creates the sources and sinks of one kind of external system. Found with {@link java.util.ServiceLoader}: a jar
 * in {@code ext/} adds a connector by listing its factory in
 * {@code META-INF/services/dev.rsql.runtime.connector.ConnectorFactory}.
 */
public interface ConnectorFactory {

    /** The Flink {@code 'connector'} / Blink {@code type} value, e.g. {@code rocketmq}. */
    String identifier();

    /** Other names accepted for the connector, e.g. Blink's {@code mq}. */
    default Set<String> aliases() {
        return Set.of();
    }

    /**
     * Checks, before the job runs, that the table can be read as declared: required options present, values that
     * parse, a known format, supported metadata columns. The planner calls it, so {@code bin/rsql check} reports a
     * mistake with its position in the script instead of the job failing at start. It must not connect to anything
     * nor change files. Throws {@link ConfigException}, naming the option to blame ({@link ConfigException#option})
     * where there is one. The default only checks that the connector can be read from at all.
     */
    default void validateSource(ConnectorContext context) {
        if (!overrides("createSource")) {
            createSource(context);
        }
    }

    /** As {@link #validateSource}, for a table the job writes. */
    default void validateSink(ConnectorContext context) {
        if (!overrides("createSink")) {
            createSink(context);
        }
    }

    private boolean overrides(String method) {
        try {
            return getClass().getMethod(method, ConnectorContext.class).getDeclaringClass() != ConnectorFactory.class;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * As {@link #validateSource}, for a table a lookup join reads as a dimension table
     * ({@code JOIN t FOR SYSTEM_TIME AS OF s.proc}). The default only checks that the connector offers lookups.
     */
    default void validateLookup(ConnectorContext context) {
        if (!overrides("createLookupSource")) {
            createLookupSource(context);
        }
    }

    /** The dimension-table side of the table, for lookup joins; created when the job starts, closed when it ends. */
    default LookupSource createLookupSource(ConnectorContext context) {
        throw new ConfigException("connector '" + identifier() + "' cannot be used as a dimension table (table "
                + context.table().name() + ")");
    }

    default Source createSource(ConnectorContext context) {
        throw new ConfigException("connector '" + identifier() + "' cannot be read from (table "
                + context.table().name() + ")");
    }

    default Sink createSink(ConnectorContext context) {
        throw new ConfigException("connector '" + identifier() + "' cannot be written to (table "
                + context.table().name() + ")");
    }

    /**
     * True when a sink of a table without a primary key can write updates and deletes, each row with its kind (a
     * changelog); the planner refuses to feed an updating query into one that cannot (an append-only sink). By default
     * the connector renders rows itself and can; connectors writing through a format ask the format.
     */
    default boolean sinkWritesChangelog(Options tableOptions, FormatRegistry formats) {
        return true;
    }

    /**
     * True when the table's source is a changelog (+I, -U, +U, -D) rather than a stream of inserts: a connector reading
     * through a format whose payloads are changes ({@code debezium-json}, {@code canal-json}, …), or one that captures
     * changes itself. The planner then treats the scan as updating. By default, inserts only.
     */
    default boolean sourceReadsChangelog(Options tableOptions, FormatRegistry formats) {
        return false;
    }
}
