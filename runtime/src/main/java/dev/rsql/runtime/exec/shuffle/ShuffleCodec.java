package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.types.RowType;

import java.nio.charset.StandardCharsets;

/**
 * The format of a shuffle message: one channel's events for one queue.
 *
 * <pre>
 * message := version:byte(1)  channel:varint length + UTF-8  event*
 * event   := tag:byte  body
 * tag     := bits 0-1 event type (0 ROW, 1 WATERMARK, 2 IDLE, 3 ACTIVE);
 *            ROW only: bits 2-3 row kind (INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE), bits 4-5 sequence mode
 * ROW       body := sequence  row fields ({@link RowSerializer} in value mode, self-delimiting)
 * WATERMARK body := zig-zag varlong
 * IDLE, ACTIVE: no body
 * </pre>
 *
 * A row's sequence {@code (position, n)} is written relative to the previous sequenced row of the message (at first
 * {@code (0, -1)}), since consecutive rows mostly differ by one: mode 0 unsequenced (no bytes), 1 same position and
 * {@code n + 1} (no bytes), 2 a later position with {@code n = 0} (varlong position delta), 3 anything later
 * (varlong position delta, varint n). Sequences of a message must increase. A message holds at most
 * {@link #MAX_EVENTS} events, so that {@code offset << 16 | event index} identifies an event. Immutable and
 * thread-safe; an {@link Encoder} belongs to one thread.
 */
public final class ShuffleCodec {

    public static final int VERSION = 1;
    /** Events a message may hold: their index must fit 16 bits. */
    public static final int MAX_EVENTS = 1 << 16;
    /** The position of a row without a deterministic sequence (emitted by processing-time timers). */
    public static final long UNSEQUENCED = -1;

    private static final int ROW = 0;
    private static final int WATERMARK = 1;
    private static final int IDLE = 2;
    private static final int ACTIVE = 3;

    private static final int SEQ_NONE = 0;
    private static final int SEQ_NEXT = 1;
    private static final int SEQ_POSITION = 2;
    private static final int SEQ_FULL = 3;

    private static final RowKind[] KINDS = RowKind.values();

    private final RowSerializer rows;

    public ShuffleCodec(RowType rowType) {
        this.rows = RowSerializer.of(rowType);
    }

    /** What a decoded message contains, event by event; {@code index} is the event's place in the message. */
    public interface Visitor {
        /** The channel the message comes from: called first. */
        void channel(String channel) throws Exception;

        void row(int index, RowKind kind, long position, int n, Object[] fields) throws Exception;

        void watermark(int index, long watermark) throws Exception;

        /** IDLE ({@code true}) or ACTIVE ({@code false}). */
        void idle(int index, boolean idle) throws Exception;
    }

    /** Hands the events of a message to {@code visitor}, in order. */
    public void decode(byte[] message, Visitor visitor) throws Exception {
        ByteReader in = new ByteReader(message);
        long prevPosition = 0;
        int prevN = -1;
        int index = 0;
        String channel;
        try {
            channel = readHeader(in);
        } catch (RuntimeException e) {
            throw malformed(message, in, e);
        }
        visitor.channel(channel);
        while (!in.atEnd()) {
            int tag;
            long position = UNSEQUENCED;
            int n = 0;
            long watermark = 0;
            Object[] fields = null;
            try {
                tag = in.readByte() & 0xff;
                int type = tag & 3;
                if (type == ROW) {
                    int mode = (tag >>> 4) & 3;
                    if (mode == SEQ_NEXT) {
                        position = prevPosition;
                        n = prevN + 1;
                    } else if (mode == SEQ_POSITION || mode == SEQ_FULL) {
                        position = prevPosition + in.readVarLong();
                        n = mode == SEQ_FULL ? in.readVarInt() : 0;
                    }
                    if (mode != SEQ_NONE) {
                        prevPosition = position;
                        prevN = n;
                    }
                    if (tag >>> 6 != 0) {
                        throw new IllegalArgumentException("unknown flags in tag " + tag);
                    }
                    fields = rows.deserialize(in);
                } else if (tag >>> 2 != 0) {
                    throw new IllegalArgumentException("unknown flags in tag " + tag);
                } else if (type == WATERMARK) {
                    long zz = in.readVarLong();
                    watermark = (zz >>> 1) ^ -(zz & 1);
                }
            } catch (RuntimeException e) {
                throw malformed(message, in, e);
            }
            switch (tag & 3) {
                case ROW:
                    visitor.row(index, KINDS[(tag >>> 2) & 3], position, n, fields);
                    break;
                case WATERMARK:
                    visitor.watermark(index, watermark);
                    break;
                default:
                    visitor.idle(index, (tag & 3) == IDLE);
                    break;
            }
            index++;
        }
    }

    private static String readHeader(ByteReader in) {
        int version = in.readByte();
        if (version != VERSION) {
            throw new IllegalArgumentException("unsupported format version " + version + " (this build reads "
                    + VERSION + ")");
        }
        return in.readUtf8();
    }

    private static IllegalArgumentException malformed(byte[] message, ByteReader in, RuntimeException cause) {
        return new IllegalArgumentException("malformed shuffle message (" + message.length + " bytes) at byte "
                + in.position() + ": " + cause.getMessage(), cause);
    }

    /** A new message of {@code channel}'s events. */
    public Encoder encoder(String channel) {
        return new Encoder(channel);
    }

    /** Builds the messages of one channel to one queue, one after the other. */
    public final class Encoder {
        private final byte[] header;
        private final ByteWriter out = new ByteWriter(1024);
        private int events;
        private long prevPosition;
        private int prevN;
        /** Where the last event starts if it is a watermark (a newer one replaces it), else -1. */
        private int lastWatermarkAt;

        private Encoder(String channel) {
            ByteWriter h = new ByteWriter(16 + channel.length());
            h.writeByte(VERSION);
            h.writeLengthPrefixed(channel.getBytes(StandardCharsets.UTF_8));
            this.header = h.toByteArray();
            reset();
        }

        private void reset() {
            out.reset();
            out.writeBytes(header);
            events = 0;
            prevPosition = 0;
            prevN = -1;
            lastWatermarkAt = -1;
        }

        /**
         * Appends a row. Its sequence {@code (position, n)} must be above the previous one of the message, unless
         * {@code position} is {@link #UNSEQUENCED}.
         */
        public void row(RowKind kind, long position, int n, Object[] fields) {
            checkRoom();
            int start = out.position();
            int mode;
            if (position == UNSEQUENCED) {
                mode = SEQ_NONE;
            } else if (position < prevPosition || (position == prevPosition && n <= prevN) || n < 0) {
                throw new IllegalArgumentException("sequence (" + position + ", " + n + ") is not above ("
                        + prevPosition + ", " + prevN + ")");
            } else if (position == prevPosition && n == prevN + 1) {
                mode = SEQ_NEXT;
            } else {
                mode = n == 0 ? SEQ_POSITION : SEQ_FULL;
            }
            out.writeByte(ROW | kind.ordinal() << 2 | mode << 4);
            if (mode == SEQ_POSITION || mode == SEQ_FULL) {
                out.writeVarLong(position - prevPosition);
                if (mode == SEQ_FULL) {
                    out.writeVarInt(n);
                }
            }
            try {
                rows.serialize(fields, out);
            } catch (RuntimeException e) {
                out.truncate(start);   // the message stays valid without the row
                throw e;
            }
            if (mode != SEQ_NONE) {
                prevPosition = position;
                prevN = n;
            }
            events++;
            lastWatermarkAt = -1;
        }

        /** Appends a watermark, replacing one that is the last event (only the latest matters). */
        public void watermark(long watermark) {
            if (lastWatermarkAt >= 0) {
                out.truncate(lastWatermarkAt);
            } else {
                checkRoom();
                events++;
            }
            lastWatermarkAt = out.position();
            out.writeByte(WATERMARK);
            out.writeVarLong((watermark << 1) ^ (watermark >> 63));
        }

        /** Appends an IDLE ({@code true}) or ACTIVE ({@code false}) mark. */
        public void idle(boolean idle) {
            checkRoom();
            out.writeByte(idle ? IDLE : ACTIVE);
            events++;
            lastWatermarkAt = -1;
        }

        private void checkRoom() {
            if (events >= MAX_EVENTS) {
                throw new IllegalStateException("a shuffle message holds at most " + MAX_EVENTS + " events");
            }
        }

        public boolean isEmpty() {
            return events == 0;
        }

        public boolean isFull() {
            return events >= MAX_EVENTS;
        }

        public int events() {
            return events;
        }

        /** Size of the message so far. */
        public int bytes() {
            return out.position();
        }

        /** The message built so far; the encoder starts a new one. */
        public byte[] finish() {
            byte[] message = out.toByteArray();
            reset();
            return message;
        }
    }
}
