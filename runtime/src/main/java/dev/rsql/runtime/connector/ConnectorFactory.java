package dev.rsql.runtime.connector;

import dev.rsql.runtime.config.ConfigException;

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

    default Source createSource(ConnectorContext context) {
        throw new ConfigException("connector '" + identifier() + "' cannot be read from (table "
                + context.table().name() + ")");
    }

    default Sink createSink(ConnectorContext context) {
        throw new ConfigException("connector '" + identifier() + "' cannot be written to (table "
                + context.table().name() + ")");
    }
}
