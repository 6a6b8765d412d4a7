package dev.rsql.runtime.format.json;

import dev.rsql.runtime.format.ChangelogOutput;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowDecoder;

import java.util.function.Consumer;

/**
 * What the decoders of the changelog JSON formats share: an empty message gives nothing (Kafka's tombstone), any
 * other is read member by member ({@link ChangelogJsonReader}) and then turned into changes ({@link #emit}). Their
 * rows are changes, so reading them without kinds is a mistake of the caller.
 */
abstract class ChangelogJsonDecoder implements RowDecoder, ChangelogJsonReader.Envelope {

    final ChangelogJsonReader reader;

    ChangelogJsonDecoder(String format, FormatContext ctx) {
        this.reader = new ChangelogJsonReader(format, ctx);
    }

    @Override
    public final void decode(byte[] payload, Consumer<Object[]> out) {
        throw new IllegalStateException(reader.format + " rows are changes: read them with decodeChangelog");
    }

    @Override
    public final void decodeChangelog(byte[] buffer, int offset, int length, ChangelogOutput out)
            throws DecodeException {
        if (length == 0) {
            return;
        }
        reader.read(buffer, offset, length, this);
        emit(out);
    }

    /** Hands on the changes of the message just read. */
    abstract void emit(ChangelogOutput out) throws DecodeException;
}
