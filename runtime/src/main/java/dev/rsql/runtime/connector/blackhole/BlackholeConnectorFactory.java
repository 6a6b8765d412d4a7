package dev.rsql.runtime.connector.blackhole;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.Sink;

/**
 * Connector {@code blackhole} (sink only), as Flink's: accepts any changelog and discards every row, counting them,
 * so a benchmark measures the engine rather than a writer. It takes no options.
 */
public final class BlackholeConnectorFactory implements ConnectorFactory {

    @Override
    public String identifier() {
        return "blackhole";
    }

    @Override
    public Sink createSink(ConnectorContext context) {
        return new BlackholeSink(context.job() == null ? null : context.job().name(), context.table().name());
    }
}
