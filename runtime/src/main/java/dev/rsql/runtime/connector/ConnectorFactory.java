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

    default Source createSource(ConnectorContext context) {
        throw new ConfigException("connector '" + identifier() + "' cannot be read from (table "
                + context.table().name() + ")");
    }

    default Sink createSink(ConnectorContext context) {
        throw new ConfigException("connector '" + identifier() + "' cannot be written to (table "
                + context.table().name() + ")");
    }
}
