package dev.rsql.runtime.operator;

import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;

/**
 * Hands rows to the task's writer of one sink table. A table with a primary key receives a changelog as upserts:
 * the update-before half of an update is dropped, since the update-after row replaces it by key.
 */
public final class SinkOperator implements Operator {

    private final String tableName;
    private final SinkWriter writer;
    private final boolean upsert;
    private long written;

    public SinkOperator(String tableName, SinkWriter writer, boolean upsert) {
        this.tableName = tableName;
        this.writer = writer;
        this.upsert = upsert;
    }

    @Override
    public void process(Row row) throws Exception {
        if (upsert && row.kind() == RowKind.UPDATE_BEFORE) {
            return;
        }
        writer.write(row);
        written++;
    }

    @Override
    public void processWatermark(long watermark) {
    }

    @Override
    public void flush() throws Exception {
        writer.flush();
    }

    /** Makes the rows written under a transaction visible (see {@link SinkWriter#commit}). */
    public void commit(String transactionId) throws Exception {
        writer.commit(transactionId);
    }

    @Override
    public void close() throws Exception {
        writer.close();
    }

    public String tableName() {
        return tableName;
    }

    /** Rows handed to the writer so far. */
    public long written() {
        return written;
    }
}
