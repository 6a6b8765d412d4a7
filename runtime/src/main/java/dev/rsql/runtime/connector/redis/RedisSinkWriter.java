package dev.rsql.runtime.connector.redis;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.format.json.ValueText;
import dev.rsql.runtime.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes rows as redis commands ({@link RedisMode}): +I and +U store the row (SET, HSET), -D and -U remove it (DEL,
 * HDEL), unless {@code ignoreDelete}. A table whose primary key is the key column gets no -U (the engine drops them
 * for keyed sinks). Commands are pipelined, up to {@code batchSize} per round trip; {@link #flush} returns once the
 * server answered them all. A connection failure is retried on a new connection (every command here can be sent
 * twice without harm); a command the server refuses fails the job, naming the table.
 */
final class RedisSinkWriter implements SinkWriter {

    private final RedisOptions options;
    private final RowType columns;
    private final List<String[]> commands = new ArrayList<>();
    private RedisConnection connection;

    RedisSinkWriter(RedisOptions options, RowType columns) throws IOException {
        this.options = options;
        this.columns = columns;
        this.connection = options.connect();
    }

    @Override
    public void write(Row row) throws Exception {
        Object[] f = row.fields();
        if (f[0] == null) {
            throw new IllegalArgumentException("table " + options.table() + ": a row with a NULL key ("
                    + columns.name(0) + ") cannot be written to redis");
        }
        String key = text(0, f[0]);
        boolean add = row.kind().isAccumulate();
        if (!add && options.ignoreDelete()) {
            return;
        }
        switch (options.mode()) {
            case STRING -> commands.add(add && f[1] != null ? new String[]{"SET", key, text(1, f[1])}
                    : new String[]{"DEL", key});
            case HASHMAP -> {
                if (f[1] == null) {
                    throw new IllegalArgumentException("table " + options.table() + ": a row with a NULL hash field ("
                            + columns.name(1) + ") cannot be written to redis");
                }
                String field = text(1, f[1]);
                commands.add(add && f[2] != null ? new String[]{"HSET", key, field, text(2, f[2])}
                        : new String[]{"HDEL", key, field});
            }
            case HASH -> {
                if (!add) {
                    commands.add(new String[]{"DEL", key});
                    break;
                }
                List<String> set = new ArrayList<>(List.of("HSET", key));
                List<String> removed = new ArrayList<>(List.of("HDEL", key));
                for (int i = 1; i < f.length; i++) {
                    if (f[i] == null) {
                        removed.add(columns.name(i));
                    } else {
                        set.add(columns.name(i));
                        set.add(text(i, f[i]));
                    }
                }
                if (set.size() > 2) {
                    commands.add(set.toArray(new String[0]));
                }
                if (removed.size() > 2) {
                    commands.add(removed.toArray(new String[0]));
                }
            }
        }
        if (commands.size() >= options.batchSize()) {
            flush();
        }
    }

    private String text(int column, Object value) {
        return ValueText.toText(columns.type(column), value, false);
    }

    @Override
    public void flush() throws Exception {
        if (commands.isEmpty()) {
            return;
        }
        for (int attempt = 0; ; attempt++) {
            try {
                if (connection == null) {
                    connection = options.connect();
                }
                for (String[] c : commands) {
                    connection.send(c);
                }
                connection.replies();
                commands.clear();
                return;
            } catch (RedisConnection.RedisException e) {
                throw new IOException("table " + options.table() + ": " + e.getMessage(), e);
            } catch (IOException e) {
                if (connection != null) {
                    connection.close();
                    connection = null;
                }
                if (attempt >= options.maxRetries()) {
                    throw new IOException("table " + options.table() + ": writing to " + options.describe()
                            + " failed " + (attempt + 1) + " times: " + e.getMessage(), e);
                }
                Thread.sleep(200L * (attempt + 1)); // back off before reconnecting
            }
        }
    }

    @Override
    public void close() throws Exception {
        try {
            flush();
        } finally {
            if (connection != null) {
                connection.close();
            }
        }
    }
}
