package dev.rsql.runtime.operator;

import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.data.Row;

/** Hands rows to the task's writer of one sink table. */
public final class SinkOperator implements Operator {

    private final String tableName;
    private final SinkWriter writer;
    private long written;

    public SinkOperator(String tableName, SinkWriter writer) {
        this.tableName = tableName;
        this.writer = writer;
    }

    @Override
    public void process(Row row) throws Exception {
        writer.write(row);
        written++;
    }

    @Override
    public void flush() throws Exception {
        writer.flush();
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
