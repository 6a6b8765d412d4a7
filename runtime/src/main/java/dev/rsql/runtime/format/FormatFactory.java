package dev.rsql.runtime.format;

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
}
