package dev.rsql.runtime.connector.http;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.format.FormatRegistry;

/**
 * Connector {@code http}: a sink sending rows to a webhook ({@link HttpSinkWriter}, options {@link HttpSinkOptions}),
 * in the table's format (default json). Checking a script sends nothing.
 */
public final class HttpConnectorFactory implements ConnectorFactory {

    @Override
    public String identifier() {
        return "http";
    }

    @Override
    public void validateSink(ConnectorContext context) {
        HttpSinkOptions.of(context);
        context.createEncoder("json", context.table().schema().physicalRowType());
    }

    @Override
    public Sink createSink(ConnectorContext context) {
        return new HttpSink(context);
    }

    /** Rows keep their kind in the format's own way (json's {@code op}); csv or raw bodies cannot carry it. */
    @Override
    public boolean sinkWritesChangelog(Options tableOptions, FormatRegistry formats) {
        return formats.encodesRowKind(tableOptions, "json");
    }
}
