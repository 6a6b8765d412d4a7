package dev.rsql.runtime.testing;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test connector {@code collect}: a sink that keeps every flushed row in memory under the option {@code id}
 * (default: the table name). Rows become visible at flush, as in a real external system.
 */
public final class CollectSinkFactory implements ConnectorFactory {

    private static final Map<String, List<Row>> RESULTS = new ConcurrentHashMap<>();

    public static List<Row> rows(String id) {
        List<Row> rows = RESULTS.get(id);
        if (rows == null) {
            return List.of();
        }
        synchronized (rows) {
            return new ArrayList<>(rows);
        }
    }

    public static void clear(String id) {
        RESULTS.remove(id);
    }

    @Override
    public String identifier() {
        return "collect";
    }

    @Override
    public Sink createSink(ConnectorContext context) {
        String id = context.options().getOrDefault(context.table().name(), "id");
        List<Row> target = RESULTS.computeIfAbsent(id, k -> new ArrayList<>());
        return new Sink() {
            @Override
            public SinkWriter createWriter(SinkWriterContext ctx) {
                return new SinkWriter() {
                    private final List<Row> pending = new ArrayList<>();

                    @Override
                    public void write(Row row) {
                        pending.add(row);
                    }

                    @Override
                    public void flush() {
                        synchronized (target) {
                            target.addAll(pending);
                        }
                        pending.clear();
                    }

                    @Override
                    public void close() {
                        flush();
                    }
                };
            }

            @Override
            public void close() {
            }
        };
    }
}
