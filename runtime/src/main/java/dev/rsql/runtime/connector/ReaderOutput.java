package dev.rsql.runtime.connector;

import dev.rsql.runtime.data.Row;

/** Where a shard reader hands its records. Implemented by the engine's task. */
public interface ReaderOutput {

    /**
     * A decoded insert row laid out as the table's row type.
     *
     * @param position the record's position in the shard (queue offset, line number); see
     *                 {@link ShardReader#describePosition}
     */
    void emit(long position, Object[] fields) throws Exception;

    /** A decoded row with its change kind (changelog sources). */
    void emit(long position, Row row) throws Exception;

    /**
     * A record could not be decoded. The engine applies the table's error policy: fail the job (throwing from here),
     * or count, log and dead-letter it and go on.
     *
     * @param payload the raw record
     */
    void decodeError(long position, byte[] payload, Exception cause) throws Exception;
}
