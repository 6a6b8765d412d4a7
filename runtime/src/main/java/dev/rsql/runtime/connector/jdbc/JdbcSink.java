package dev.rsql.runtime.connector.jdbc;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.types.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Writes a table's rows into a MySQL/MariaDB table of the same column names. With a primary key every row is an
 * idempotent upsert ({@code INSERT ... ON DUPLICATE KEY UPDATE}) and a delete removes the key, so replaying rows
 * after a restore leaves the same table; without one rows are appended ({@code INSERT}) and the planner feeds it only
 * inserts. Each task writes through its own connection ({@link JdbcSinkWriter}).
 */
final class JdbcSink implements Sink {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcSink.class);

    final JdbcOptions options;
    final JdbcConnector connector;
    final String job;
    final String tableName;
    final RowType payloadType;
    final int[] payloadPositions;
    /** Key positions within the payload; empty for an appending sink. */
    final int[] keyPositions;
    final String writeSql;
    final String deleteSql;

    JdbcSink(ConnectorContext context) {
        this.options = JdbcOptions.of(context.options());
        this.job = context.job().name();
        this.tableName = context.table().name();
        TableSchema schema = context.table().schema();
        this.payloadType = schema.physicalRowType();
        this.payloadPositions = schema.physicalPositions();
        for (int i = 0; i < payloadType.size(); i++) {
            JdbcValues.checkSupported(tableName, payloadType.name(i), payloadType.type(i));
        }
        List<String> key = schema.primaryKey();
        this.keyPositions = key.stream().mapToInt(payloadType::indexOf).toArray();
        List<String> columns = payloadType.names();
        this.writeSql = key.isEmpty() ? MySqlStatements.insert(options.table(), columns)
                : MySqlStatements.upsert(options.table(), columns, key);
        this.deleteSql = key.isEmpty() ? null : MySqlStatements.delete(options.table(), key);
        this.connector = new JdbcConnector(options, context.job().classLoader());
        LOG.info("job={} table={}: writing {} ({}, batches of {} rows)", job, tableName, options.describe(),
                key.isEmpty() ? "appends" : "upserts on " + key, options.flushMaxRows());
    }

    @Override
    public SinkWriter createWriter(SinkWriterContext context) {
        return new JdbcSinkWriter(this, context.taskId());
    }

    @Override
    public void close() {
    }
}
