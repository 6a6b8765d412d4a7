package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.types.RowType;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The downstream end of one shuffle queue: decodes its messages, drops the rows a channel sent again (a sequence not
 * above the last one applied from that channel: a retried batch, or an upstream replaying from its last checkpoint),
 * and keeps the input watermark — the minimum over the channels that are not idle, where a channel expected but never
 * heard of counts as {@code Long.MIN_VALUE} (time does not move while an upstream queue has not been read). Channels
 * not expected that show up are taken in. Unsequenced rows are always passed on (at-least-once).
 *
 * <p>Belongs to the thread of the task reading the queue.
 */
public final class ShuffleInput {

    /** What the task does with what arrives. */
    public interface Handler {
        /** A row; {@code inputPosition} ({@code offset << 16 | event index}) is the position of rows it produces. */
        void row(long inputPosition, Row row) throws Exception;

        /** The input watermark advanced. */
        void watermark(long watermark) throws Exception;
    }

    private final ShuffleCodec codec;
    private final Map<String, Progress> channels = new HashMap<>();
    private final Decoder decoder = new Decoder();
    private long watermark;
    private long duplicates;

    /**
     * @param expectedChannels the channels writing to this queue: every queue of the source topics and of the
     *                         upstream shuffles
     * @param restored         the table of the last checkpoint, or {@link ChannelTable#empty()}
     */
    public ShuffleInput(RowType rowType, Set<String> expectedChannels, ChannelTable restored) {
        this.codec = new ShuffleCodec(rowType);
        restored.channels().forEach((id, e) -> channels.put(id, new Progress(e)));
        for (String id : expectedChannels) {
            channels.computeIfAbsent(id, k -> new Progress(ChannelTable.Entry.NEW));
        }
        this.watermark = minimum();
    }

    /** Handles the message stored at {@code messageOffset} of the queue. */
    public void accept(long messageOffset, byte[] body, Handler handler) throws Exception {
        decoder.start(messageOffset, handler);
        codec.decode(body, decoder);
    }

    /** The input watermark: only ever advances. */
    public long watermark() {
        return watermark;
    }

    /** Rows dropped because their channel had sent them before. */
    public long duplicatesDropped() {
        return duplicates;
    }

    /** The state of every channel now, for the task's commit record. */
    public ChannelTable snapshot() {
        Map<String, ChannelTable.Entry> table = new HashMap<>();
        channels.forEach((id, p) -> table.put(id, p.entry()));
        return new ChannelTable(table);
    }

    /** Minimum watermark over channels not idle; the current one if all are idle (time holds). */
    private long minimum() {
        long min = Long.MAX_VALUE;
        boolean any = false;
        for (Progress p : channels.values()) {
            if (!p.idle) {
                min = Math.min(min, p.watermark);
                any = true;
            }
        }
        return any ? min : watermark;
    }

    private void advance(Handler handler) throws Exception {
        long min = minimum();
        if (min > watermark) {
            watermark = min;
            handler.watermark(min);
        }
    }

    /** A channel's progress, owned by the task thread. */
    private static final class Progress {
        long position;
        int n;
        long watermark;
        boolean idle;

        Progress(ChannelTable.Entry e) {
            this.position = e.position();
            this.n = e.n();
            this.watermark = e.watermark();
            this.idle = e.idle();
        }

        ChannelTable.Entry entry() {
            return new ChannelTable.Entry(position, n, watermark, idle);
        }
    }

    /** Applies the events of one message of one channel. */
    private final class Decoder implements ShuffleCodec.Visitor {
        private long base;
        private Progress channel;
        private Handler handler;

        void start(long messageOffset, Handler handler) {
            this.base = messageOffset << 16;
            this.handler = handler;
        }

        @Override
        public void channel(String id) {
            channel = channels.computeIfAbsent(id, k -> new Progress(ChannelTable.Entry.NEW));
        }

        @Override
        public void row(int index, RowKind kind, long position, int n, Object[] fields) throws Exception {
            if (position != ShuffleCodec.UNSEQUENCED) {
                if (position < channel.position || (position == channel.position && n <= channel.n)) {
                    duplicates++;
                    return;
                }
                channel.position = position;
                channel.n = n;
            }
            handler.row(base | index, new Row(kind, fields));
        }

        @Override
        public void watermark(int index, long time) throws Exception {
            channel.idle = false;
            if (time > channel.watermark) {
                channel.watermark = time;
            }
            advance(handler);
        }

        @Override
        public void idle(int index, boolean idle) throws Exception {
            channel.idle = idle;
            advance(handler);
        }
    }
}
