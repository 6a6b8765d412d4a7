package dev.rsql.runtime.format;

import dev.rsql.runtime.data.Row;

/** Encodes rows of one table. One instance per writer: implementations need not be thread-safe. */
public interface RowEncoder {

    /** Encodes the row's fields (laid out as {@link FormatContext#rowType()}). */
    byte[] encode(Row row);
}
