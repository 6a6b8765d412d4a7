package dev.rsql.runtime.connector;

import dev.rsql.runtime.data.Row;

/** Writes the rows of one task to a sink. Called only from the thread running the task. */
public interface SinkWriter {

    /** Accepts a row (laid out as the sink table's row type). May buffer; may throw an earlier write's failure. */
    void write(Row row) throws Exception;

    /** Returns once everything written so far is stored by the external system; throws if any of it failed. */
    void flush() throws Exception;

    /**
     * Makes visible every row written under {@code transactionId}. The job calls it only after {@link #flush()}
     * returned and after it durably recorded the checkpoint the transaction belongs to. Non-transactional writers
     * ignore it.
     */
    default void commit(String transactionId) throws Exception {
    }

    /** Flushes and releases the writer's resources. */
    void close() throws Exception;
}
