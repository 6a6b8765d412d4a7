package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;
import dev.rsql.runtime.state.StateException;

/**
 * What a shuffle task's commit record says besides its state: where reading its shuffle queue resumes, the task's
 * watermark, and what it applied from each channel (so rows sent again are recognised).
 *
 * @param nextOffset the offset of the first shuffle message the checkpoint does not cover
 * @param watermark  the task's input watermark
 * @param channels   the last sequence and watermark of every channel
 */
public record ShuffleCheckpoint(long nextOffset, long watermark, ChannelTable channels) {

    private static final int VERSION = 1;

    /** Where a task without a checkpoint starts: the first offset, time unknown, no channel heard of. */
    public static final ShuffleCheckpoint INITIAL = new ShuffleCheckpoint(0, Long.MIN_VALUE, ChannelTable.empty());

    public byte[] toBytes() {
        byte[] table = channels.toBytes();
        ByteWriter out = new ByteWriter(24 + table.length);
        out.writeByte(VERSION);
        out.writeLong(nextOffset);
        out.writeLong(watermark);
        out.writeLengthPrefixed(table);
        return out.toByteArray();
    }

    public static ShuffleCheckpoint fromBytes(byte[] bytes) {
        ByteReader in = new ByteReader(bytes);
        int version = in.readByte();
        if (version != VERSION) {
            throw new StateException("shuffle checkpoint of version " + version + ", this engine reads " + VERSION);
        }
        return new ShuffleCheckpoint(in.readLong(), in.readLong(), ChannelTable.fromBytes(in.readLengthPrefixed()));
    }
}
