package dev.rsql.cli.shell;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.LocalTimeZone;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;

/**
 * Connector {@code rsql-shell-result} (sink only): the table a live query of {@code rsql sql} writes to; its rows
 * go to the shell's {@link ResultChannel} named by option {@code result-id}. Only the shell declares such tables.
 */
public final class ResultSinkFactory implements ConnectorFactory {

    static final String IDENTIFIER = "rsql-shell-result";
    static final String RESULT_ID = "result-id";

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public void validateSink(ConnectorContext context) {
        channel(context);
    }

    @Override
    public Sink createSink(ConnectorContext context) {
        ResultChannel channel = channel(context);
        channel.describe(context.table().schema().rowType(), LocalTimeZone.of(context.job()));
        return new Sink() {
            @Override
            public SinkWriter createWriter(SinkWriterContext writerContext) {
                return new SinkWriter() {
                    @Override
                    public void write(Row row) throws InterruptedException {
                        channel.put(row);
                    }

                    @Override
                    public void flush() {
                    }

                    @Override
                    public void close() {
                    }
                };
            }

            @Override
            public void close() {
            }
        };
    }

    private static ResultChannel channel(ConnectorContext context) {
        ResultChannel channel = ResultChannel.find(context.options().get(RESULT_ID));
        if (channel == null) {
            throw new ConfigException("connector '" + IDENTIFIER + "' (table " + context.table().name()
                    + ") only receives the results of queries typed into 'rsql sql'");
        }
        return channel;
    }
}
