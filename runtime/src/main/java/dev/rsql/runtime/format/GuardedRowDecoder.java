package dev.rsql.runtime.format;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.RowKind;

import java.util.function.Consumer;

/**
 * A source table's decoder as connectors get it, so that no single record can hurt the job: a payload over the
 * table's {@code scan.max-record-bytes} is rejected before it is parsed, and any failure of the format on one record
 * (a runtime exception, a {@link StackOverflowError} on nesting the format does not limit) becomes a
 * {@link DecodeException}, to which the table's error policy applies.
 */
public final class GuardedRowDecoder implements RowDecoder {

    public static final String MAX_RECORD_BYTES = "scan.max-record-bytes";
    public static final int DEFAULT_MAX_RECORD_BYTES = 16 * 1024 * 1024;

    private final RowDecoder format;
    private final int maxRecordBytes;
    private final boolean changelog;
    /** The output the last insert-only decoding went to, and the view of it as a consumer of inserts. */
    private ChangelogOutput insertTarget;
    private Consumer<Object[]> inserts;

    public GuardedRowDecoder(RowDecoder format, int maxRecordBytes) {
        this(format, maxRecordBytes, false);
    }

    /** @param changelog whether the format decodes changes ({@link FormatFactory#decodesChangelog}) */
    public GuardedRowDecoder(RowDecoder format, int maxRecordBytes, boolean changelog) {
        this.format = format;
        this.maxRecordBytes = maxRecordBytes;
        this.changelog = changelog;
    }

    /** The table's record size limit in bytes. */
    public static int maxRecordBytes(Options tableOptions) {
        long v = tableOptions.getLong(DEFAULT_MAX_RECORD_BYTES, MAX_RECORD_BYTES);
        if (v < 1 || v > Integer.MAX_VALUE - 16) {
            throw new ConfigException("option '" + MAX_RECORD_BYTES + "' must be a number of bytes between 1 and "
                    + (Integer.MAX_VALUE - 16) + ", got " + v);
        }
        return (int) v;
    }

    /** The error of a record of {@code size} bytes over the limit (also for connectors that never hold it whole). */
    public static DecodeException tooLarge(long size, int maxRecordBytes) {
        return new DecodeException(null, "the record has " + size + " bytes, more than the limit of " + maxRecordBytes
                + " (option '" + MAX_RECORD_BYTES + "')");
    }

    @Override
    public void decode(byte[] payload, Consumer<Object[]> out) throws DecodeException {
        decode(payload, 0, payload.length, out);
    }

    @Override
    public void decode(byte[] buffer, int offset, int length, Consumer<Object[]> out) throws DecodeException {
        guarded(buffer, offset, length, out, null);
    }

    /** Readers call this: rows of a changelog format keep their kinds, those of other formats are inserts. */
    @Override
    public void decodeChangelog(byte[] buffer, int offset, int length, ChangelogOutput out) throws DecodeException {
        if (changelog) {
            guarded(buffer, offset, length, null, out);
            return;
        }
        if (out != insertTarget) {
            inserts = fields -> out.row(RowKind.INSERT, fields);
            insertTarget = out;
        }
        guarded(buffer, offset, length, inserts, null);
    }

    /** Decodes into {@code out}, or with kinds into {@code changes} when that is not null. */
    private void guarded(byte[] buffer, int offset, int length, Consumer<Object[]> out, ChangelogOutput changes)
            throws DecodeException {
        if (length > maxRecordBytes) {
            throw tooLarge(length, maxRecordBytes);
        }
        try {
            if (changes != null) {
                format.decodeChangelog(buffer, offset, length, changes);
            } else if (offset == 0 && length == buffer.length) {
                format.decode(buffer, out); // a whole array: no copy, whatever the format
            } else {
                format.decode(buffer, offset, length, out);
            }
        } catch (RuntimeException e) {
            throw new DecodeException(null, "the format failed: " + e, e);
        } catch (StackOverflowError e) {
            // the stack is unwound to here: only this record is lost; its trace is useless and long
            throw new DecodeException(null, "nested too deeply to decode (the stack overflowed)");
        }
    }
}
