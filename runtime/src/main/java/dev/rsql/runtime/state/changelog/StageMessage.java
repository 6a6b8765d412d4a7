package dev.rsql.runtime.state.changelog;

import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;
import dev.rsql.runtime.state.StateException;

import java.nio.charset.StandardCharsets;

/**
 * The body of a stage message (tag {@link #TAG}): one chunk of bytes a sink writer keeps with a checkpoint, the rows
 * it publishes once the checkpoint's commit record is stored (see {@link StagedRows}).
 * <pre>
 * [format 1][incarnation 8][checkpoint 8][sequence 4][owner: varint length + UTF-8][chunk]
 * </pre>
 * The sequence numbers a checkpoint's stage messages from 0, so that one stored twice (a send retried after a timeout
 * that had in fact arrived) is read once.
 */
final class StageMessage {

    static final String TAG = "stage";
    private static final byte FORMAT = 1;

    /** A decoded stage message. */
    record Received(long incarnation, long checkpointId, int sequence, String owner, byte[] chunk) {
    }

    private StageMessage() {
    }

    static byte[] encode(long incarnation, long checkpointId, int sequence, String owner, byte[] chunk) {
        byte[] name = owner.getBytes(StandardCharsets.UTF_8);
        ByteWriter w = new ByteWriter(32 + name.length + chunk.length);
        w.writeByte(FORMAT);
        w.writeLong(incarnation);
        w.writeLong(checkpointId);
        w.writeInt(sequence);
        w.writeLengthPrefixed(name);
        w.writeBytes(chunk);
        return w.toByteArray();
    }

    static Received parse(byte[] body) {
        ByteReader r = new ByteReader(body);
        int format = r.readByte();
        if (format != FORMAT) {
            throw new StateException("stage message of format " + format + ", this engine reads " + FORMAT);
        }
        long incarnation = r.readLong();
        long checkpointId = r.readLong();
        int sequence = r.readInt();
        String owner = r.readUtf8();
        return new Received(incarnation, checkpointId, sequence, owner, r.readBytes(r.remaining()));
    }
}
