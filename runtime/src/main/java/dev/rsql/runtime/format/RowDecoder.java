package dev.rsql.runtime.format;

import dev.rsql.runtime.data.RowKind;

import java.util.Arrays;
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

    /**
     * As {@link #decode(byte[], Consumer)} for the payload in {@code buffer[offset, offset + length)}, which the
     * caller reuses afterwards: the rows keep no reference to it. Formats that read in place override this, so that
     * a reader need not copy each record out of its buffer; by default the payload is copied.
     */
    default void decode(byte[] buffer, int offset, int length, Consumer<Object[]> out) throws DecodeException {
        decode(Arrays.copyOfRange(buffer, offset, offset + length), out);
    }

    /**
     * As {@link #decode(byte[], int, int, Consumer)}, with each row's change kind. Formats whose payloads carry
     * changes ({@link FormatFactory#decodesChangelog}, such as {@code debezium-json}) override this; by default every
     * row is an insert.
     */
    default void decodeChangelog(byte[] buffer, int offset, int length, ChangelogOutput out) throws DecodeException {
        decode(buffer, offset, length, fields -> out.row(RowKind.INSERT, fields));
    }
}
