package dev.rsql.runtime.state.changelog;

import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;
import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.store.RawEntryVisitor;
import dev.rsql.runtime.state.store.StateColumnFamily;

import java.io.IOException;

/**
 * The body of a state message (tag {@link #TAG}): raw entries of one checkpoint of one incarnation.
 * <pre>
 * [format 1][kind 1][incarnation 8][checkpoint 8][sequence 4]
 * per entry: [column family 1][key length: varint][key][value length + 1: varint, 0 = deleted][value]
 * </pre>
 * The sequence numbers a checkpoint's messages from 0, so that a message stored twice (a send retried after a timeout
 * that had in fact arrived) is applied once and a lost one is noticed. Built in one reusable buffer.
 */
final class ChangeBatch {

    static final String TAG = "state";
    private static final byte FORMAT = 1;
    /** The most an entry adds besides its key and value: column family and two varints. */
    private static final int ENTRY_OVERHEAD = 11;

    /** What a checkpoint wrote: the changes since the previous one, or every entry (a new base). */
    enum Kind {
        CHANGES(1), SNAPSHOT(2);

        final byte id;

        Kind(int id) {
            this.id = (byte) id;
        }

        static Kind ofId(int id) {
            for (Kind k : values()) {
                if (k.id == id) {
                    return k;
                }
            }
            throw new StateException("unknown state message kind " + id);
        }
    }

    /** The header of a received batch; {@link #forEachEntry} decodes the entries. */
    record Received(Kind kind, long incarnation, long checkpointId, int sequence, byte[] body, int entriesAt) {

        void forEachEntry(RawEntryVisitor visitor) throws IOException {
            ByteReader r = new ByteReader(body);
            r.skip(entriesAt);
            while (!r.atEnd()) {
                StateColumnFamily cf = StateColumnFamily.ofId(r.readByte());
                byte[] key = r.readLengthPrefixed();
                int valueLength = r.readVarInt();
                visitor.visit(cf, key, valueLength == 0 ? null : r.readBytes(valueLength - 1));
            }
        }
    }

    private final ByteWriter out;
    private int entries;

    ChangeBatch(int capacity) {
        out = new ByteWriter(capacity);
    }

    void start(Kind kind, long incarnation, long checkpointId, int sequence) {
        out.reset();
        out.writeByte(FORMAT);
        out.writeByte(kind.id);
        out.writeLong(incarnation);
        out.writeLong(checkpointId);
        out.writeInt(sequence);
        entries = 0;
    }

    /** An upper bound of the bytes {@link #add} appends for this entry. */
    static int entrySize(byte[] key, byte[] value) {
        return ENTRY_OVERHEAD + key.length + (value == null ? 0 : value.length);
    }

    void add(StateColumnFamily cf, byte[] key, byte[] value) {
        out.writeByte(cf.id());
        out.writeLengthPrefixed(key);
        if (value == null) {
            out.writeVarInt(0);
        } else {
            out.writeVarInt(value.length + 1);
            out.writeBytes(value);
        }
        entries++;
    }

    int entries() {
        return entries;
    }

    int size() {
        return out.position();
    }

    byte[] body() {
        return out.toByteArray();
    }

    static Received parse(byte[] body) {
        ByteReader r = new ByteReader(body);
        int format = r.readByte();
        if (format != FORMAT) {
            throw new StateException("state message of format " + format + ", this engine reads " + FORMAT);
        }
        Kind kind = Kind.ofId(r.readByte());
        long incarnation = r.readLong();
        long checkpointId = r.readLong();
        int sequence = r.readInt();
        return new Received(kind, incarnation, checkpointId, sequence, body, r.position());
    }
}
