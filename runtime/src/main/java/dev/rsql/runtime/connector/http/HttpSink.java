package dev.rsql.runtime.connector.http;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.types.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

/** The writable side of an {@code http} table: a writer per task ({@link HttpSinkWriter}), one dead-letter file. */
final class HttpSink implements Sink {

    private static final Logger LOG = LoggerFactory.getLogger(HttpSink.class);

    private final ConnectorContext context;
    private final HttpSinkOptions options;
    private final RowType columns;
    private final boolean jsonArray;
    private final String contentType;
    private final HttpDeadLetters deadLetters;

    HttpSink(ConnectorContext context) {
        this.context = context;
        this.options = HttpSinkOptions.of(context);
        this.columns = context.table().schema().physicalRowType();
        String format = FormatRegistry.formatName(context.options(), "json").trim().toLowerCase(Locale.ROOT);
        this.jsonArray = format.endsWith("json") || format.equals("cloudevents");
        boolean batch = options.batchRows() > 1;
        this.contentType = format.equals("cloudevents") ? (batch ? "application/cloudevents-batch+json"
                : "application/cloudevents+json") : jsonArray ? "application/json" : "text/plain; charset=utf-8";
        context.createEncoder("json", columns); // a bad format fails now, not at the first row
        try {
            this.deadLetters = options.deadLetterPath() == null ? null
                    : new HttpDeadLetters(options.deadLetterPath(), context.job().name());
        } catch (IOException e) {
            throw new UncheckedIOException("table " + options.table() + ": cannot open the dead-letter file "
                    + options.deadLetterPath() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public SinkWriter createWriter(SinkWriterContext writer) {
        LOG.info("job={} table={} task={}: sending to {}", context.job().name(), options.table(), writer.taskId(),
                options.target());
        return new HttpSinkWriter(options, context.createEncoder("json", columns), jsonArray, contentType, columns,
                deadLetters);
    }

    @Override
    public void close() {
        if (deadLetters != null) {
            try {
                deadLetters.close();
            } catch (IOException e) {
                LOG.warn("job={} table={}: closing the dead-letter file: {}", context.job().name(), options.table(),
                        e.getMessage());
            }
        }
    }
}
