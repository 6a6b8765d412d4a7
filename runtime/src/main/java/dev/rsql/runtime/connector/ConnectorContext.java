package dev.rsql.runtime.connector;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.RowType;

/** What a connector gets to build a source or sink for one table of one job. */
public interface ConnectorContext {

    TableDescriptor table();

    /** The table's options (same as {@code table().options()}). */
    default Options options() {
        return table().options();
    }

    JobInfo job();

    /**
     * A decoder for the table's format (option {@code format}, default {@code defaultFormat}) producing rows of
     * {@code targetArity} values with the payload fields at {@code targetPositions}. It rejects payloads over the
     * table's {@code scan.max-record-bytes} and throws nothing but {@link dev.rsql.runtime.format.DecodeException}
     * for a bad record.
     */
    RowDecoder createDecoder(String defaultFormat, RowType payloadFields, int[] targetPositions, int targetArity);

    /**
     * True when the table's format (option {@code format}, default {@code defaultFormat}) holds changes of rows
     * ({@link dev.rsql.runtime.format.FormatFactory#decodesChangelog}).
     */
    default boolean formatDecodesChangelog(String defaultFormat) {
        return false;
    }

    /** An encoder for the table's format (option {@code format}, default {@code defaultFormat}). */
    RowEncoder createEncoder(String defaultFormat, RowType payloadFields);

    /**
     * A decoder for the format named by the table option {@code formatKey} (e.g. a Kafka message key's
     * {@code key.format}), with the options prefixed {@code <formatKey without ".format">.<format>.} as its own.
     */
    default RowDecoder createDecoder(String formatKey, String defaultFormat, RowType payloadFields,
                                     int[] targetPositions, int targetArity) {
        throw new UnsupportedOperationException("no decoder for option " + formatKey);
    }

    /** As {@link #createDecoder(String, String, RowType, int[], int)}, an encoder. */
    default RowEncoder createEncoder(String formatKey, String defaultFormat, RowType payloadFields) {
        throw new UnsupportedOperationException("no encoder for option " + formatKey);
    }
}
