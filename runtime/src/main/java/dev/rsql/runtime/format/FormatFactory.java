package dev.rsql.runtime.format;

import dev.rsql.runtime.types.DataType;

import java.util.Map;
import java.util.Set;

/**
 * Turns payload bytes into rows and back. Found with {@link java.util.ServiceLoader}: a jar in {@code ext/} adds a
 * format by listing its factory in {@code META-INF/services/dev.rsql.runtime.format.FormatFactory}.
 */
public interface FormatFactory {

    /** The value of the {@code format} option that selects this format, e.g. {@code json}. */
    String identifier();

    default Set<String> aliases() {
        return Set.of();
    }

    RowDecoder createDecoder(FormatContext context);

    RowEncoder createEncoder(FormatContext context);

    /**
     * True when encoded rows keep their kind (+I, -U, +U, -D), so a table without a primary key can hold a changelog
     * in this format; false for formats that can only append rows.
     */
    default boolean encodesRowKind() {
        return false;
    }

    /**
     * True when a payload holds changes of rows rather than rows (+I, -U, +U, -D: {@code debezium-json},
     * {@code canal-json}, {@code maxwell-json}): a source table of this format is a changelog, and its decoders
     * override {@link RowDecoder#decodeChangelog}.
     */
    default boolean decodesChangelog() {
        return false;
    }

    /**
     * The metadata this format fills from its payloads, by key (a table declares it as {@code METADATA FROM
     * 'value.<key>'}; see {@link FormatMetadata}): STRING or TIMESTAMP_LTZ(3) values. Its decoders find the columns
     * in {@link FormatContext#metadata()}. None by default.
     */
    default Map<String, DataType> readableMetadata() {
        return Map.of();
    }
}
