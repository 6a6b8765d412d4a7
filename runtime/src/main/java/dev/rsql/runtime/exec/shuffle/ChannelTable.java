package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a {@link ShuffleInput} knows of each channel at a point in time: the last sequence it applied, the channel's
 * watermark and whether it is idle. Part of a shuffle task's commit record, so that rows a channel sends again after
 * a restart are recognised, and time resumes where it was. Immutable.
 */
public final class ChannelTable {

    private static final int VERSION = 1;
    private static final ChannelTable EMPTY = new ChannelTable(Map.of());

    /** One channel: the last sequence applied ({@code position} -1 while none was), watermark and idleness. */
    public record Entry(long position, int n, long watermark, boolean idle) {
        /** A channel heard of but without a sequenced row applied. */
        static final Entry NEW = new Entry(-1, -1, Long.MIN_VALUE, false);
    }

    private final Map<String, Entry> channels;

    ChannelTable(Map<String, Entry> channels) {
        this.channels = Collections.unmodifiableMap(new TreeMap<>(channels));
    }

    public static ChannelTable empty() {
        return EMPTY;
    }

    /** The channels by id, in id order. */
    public Map<String, Entry> channels() {
        return channels;
    }

    public byte[] toBytes() {
        ByteWriter out = new ByteWriter(16 + channels.size() * 32);
        out.writeByte(VERSION);
        out.writeVarInt(channels.size());
        for (Map.Entry<String, Entry> e : channels.entrySet()) {
            Entry c = e.getValue();
            out.writeLengthPrefixed(e.getKey().getBytes(StandardCharsets.UTF_8));
            out.writeLong(c.position());
            out.writeInt(c.n());
            out.writeLong(c.watermark());
            out.writeByte(c.idle() ? 1 : 0);
        }
        return out.toByteArray();
    }

    public static ChannelTable fromBytes(byte[] bytes) {
        ByteReader in = new ByteReader(bytes);
        try {
            int version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("unsupported channel table version " + version);
            }
            int count = in.readVarInt();
            Map<String, Entry> channels = new TreeMap<>();
            for (int i = 0; i < count; i++) {
                String id = in.readUtf8();
                channels.put(id, new Entry(in.readLong(), in.readInt(), in.readLong(), in.readByte() != 0));
            }
            if (!in.atEnd()) {
                throw new IllegalArgumentException((bytes.length - in.position()) + " trailing bytes");
            }
            return new ChannelTable(channels);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("malformed channel table (" + bytes.length + " bytes): "
                    + e.getMessage(), e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChannelTable && ((ChannelTable) o).channels.equals(channels);
    }

    @Override
    public int hashCode() {
        return channels.hashCode();
    }

    @Override
    public String toString() {
        return "ChannelTable" + channels;
    }
}
