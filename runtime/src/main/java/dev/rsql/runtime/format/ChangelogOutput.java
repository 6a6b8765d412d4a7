package dev.rsql.runtime.format;

import dev.rsql.runtime.data.RowKind;

/** Receives the rows a decoder reads from one payload, each with its change kind (+I, -U, +U, -D). */
@FunctionalInterface
public interface ChangelogOutput {

    /** @param fields a new array of {@link FormatContext#targetArity()} values, as {@link RowDecoder#decode} gives */
    void row(RowKind kind, Object[] fields);
}
