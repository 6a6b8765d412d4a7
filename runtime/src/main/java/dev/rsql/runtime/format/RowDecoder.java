package dev.rsql.runtime.format;

import java.util.function.Consumer;

/** Decodes payloads of one table. One instance per task: implementations need not be thread-safe. */
public interface RowDecoder {

    /**
     * Decodes a payload into zero or more rows (most formats produce exactly one). Each row is a new array of
     * {@link FormatContext#targetArity()} values with the decoded fields at their target positions.
     *
     * @throws DecodeException naming the field when the payload does not fit the schema
     */
    void decode(byte[] payload, Consumer<Object[]> out) throws DecodeException;
}
