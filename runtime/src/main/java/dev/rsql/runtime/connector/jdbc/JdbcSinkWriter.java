package dev.rsql.runtime.connector.jdbc;

import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of one task, buffered and written in batches: when {@code sink.buffer-flush.max-rows} rows are buffered,
 * when a write comes {@code sink.buffer-flush.interval} after the last flush, and at every checkpoint (the engine's
 * {@link #flush}), which fails if the batch cannot be written, so a checkpoint never covers rows the database does not
 * have. A keyed sink buffers the last row of each key only (a later change of a key replaces the earlier one), so
 * a batch is one write or delete per key, in one transaction. A batch failing with a transient error
 * ({@link JdbcErrors}) is written again on a new connection, {@code sink.max-retries} times; upserts and deletes make
 * that safe.
 */
final class JdbcSinkWriter implements SinkWriter {

    private final JdbcSink sink;
    private final String logContext;
    private final long flushIntervalNanos;
    private final Map<Key, Row> keyed = new LinkedHashMap<>();
    private final List<Object[]> appended = new ArrayList<>();
    private Connection connection;
    private PreparedStatement write;
    private PreparedStatement delete;
    private long lastFlushNanos = System.nanoTime();

    JdbcSinkWriter(JdbcSink sink, String taskId) {
        this.sink = sink;
        this.logContext = "job=" + sink.job + " task=" + taskId + " table=" + sink.tableName;
        this.flushIntervalNanos = sink.options.flushInterval().toNanos();
    }

    /** Key values with value equality (arrays compared by content). */
    private record Key(Object[] values) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.deepEquals(values, k.values);
        }

        @Override
        public int hashCode() {
            return Arrays.deepHashCode(values);
        }
    }

    @Override
    public void write(Row row) throws Exception {
        Object[] payload = new Object[sink.payloadPositions.length];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = row.get(sink.payloadPositions[i]);
        }
        if (sink.keyPositions.length == 0) {
            appended.add(payload);
        } else {
            Object[] key = new Object[sink.keyPositions.length];
            for (int i = 0; i < key.length; i++) {
                key[i] = payload[sink.keyPositions[i]];
            }
            Key k = new Key(key);
            keyed.remove(k); // keeps the buffer in the order of the last change of each key
            keyed.put(k, new Row(row.kind(), payload));
        }
        if (buffered() >= sink.options.flushMaxRows()
                || (flushIntervalNanos > 0 && System.nanoTime() - lastFlushNanos >= flushIntervalNanos)) {
            flush();
        }
    }

    private int buffered() {
        return keyed.size() + appended.size();
    }

    @Override
    public void flush() throws Exception {
        lastFlushNanos = System.nanoTime();
        if (buffered() == 0) {
            return;
        }
        JdbcRetry.run("cannot write " + buffered() + " rows", sink.options, sink.options.maxRetries(),
                logContext, this::dropConnection, this::writeBatch);
        keyed.clear();
        appended.clear();
    }

    /** Writes the buffer in one transaction; returns the number of rows. */
    private int writeBatch() throws SQLException {
        if (connection == null) {
            connection = sink.connector.open(false);
            write = connection.prepareStatement(sink.writeSql);
            delete = sink.deleteSql == null ? null : connection.prepareStatement(sink.deleteSql);
        }
        int writes = 0;
        int deletes = 0;
        for (Object[] values : appended) {
            bindAll(write, values);
            writes++;
        }
        for (Row r : keyed.values()) {
            if (r.kind() == RowKind.DELETE || r.kind() == RowKind.UPDATE_BEFORE) {
                Object[] values = r.fields();
                for (int i = 0; i < sink.keyPositions.length; i++) {
                    int p = sink.keyPositions[i];
                    JdbcValues.set(delete, i + 1, sink.payloadType.type(p), values[p]);
                }
                delete.addBatch();
                deletes++;
            } else {
                bindAll(write, r.fields());
                writes++;
            }
        }
        if (deletes > 0) {
            delete.executeBatch();
        }
        if (writes > 0) {
            write.executeBatch();
        }
        connection.commit();
        return writes + deletes;
    }

    private void bindAll(PreparedStatement st, Object[] values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            JdbcValues.set(st, i + 1, sink.payloadType.type(i), values[i]);
        }
        st.addBatch();
    }

    /** After a failed batch: the connection may be broken, and its statements hold half a batch. */
    private void dropConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // broken already
            }
        }
        connection = null;
        write = null;
        delete = null;
    }

    @Override
    public void close() throws Exception {
        try {
            flush();
        } finally {
            dropConnection();
        }
    }
}
