package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.rsql.runtime.exec.shuffle.ShuffleCodecTest.SMALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ShuffleInputTest {

    private final ShuffleCodec codec = new ShuffleCodec(SMALL);

    /** What a task sees. */
    static final class Recorder implements ShuffleInput.Handler {
        final List<Long> positions = new ArrayList<>();
        final List<Row> rows = new ArrayList<>();
        final List<Long> watermarks = new ArrayList<>();

        @Override
        public void row(long inputPosition, Row row) {
            positions.add(inputPosition);
            rows.add(row);
        }

        @Override
        public void watermark(long watermark) {
            watermarks.add(watermark);
        }

        List<Object> ids() {
            List<Object> ids = new ArrayList<>();
            for (Row r : rows) {
                ids.add(r.get(0));
            }
            return ids;
        }
    }

    /** A message of rows {@code (position, n, id)}. */
    private byte[] rows(String channel, long[]... rows) {
        ShuffleCodec.Encoder e = codec.encoder(channel);
        for (long[] r : rows) {
            e.row(RowKind.INSERT, r[0], (int) r[1], new Object[] {r[2], null});
        }
        return e.finish();
    }

    private byte[] watermark(String channel, long watermark) {
        ShuffleCodec.Encoder e = codec.encoder(channel);
        e.watermark(watermark);
        return e.finish();
    }

    private byte[] idle(String channel, boolean idle) {
        ShuffleCodec.Encoder e = codec.encoder(channel);
        e.idle(idle);
        return e.finish();
    }

    @Test
    void rowsAChannelSentBeforeAreDropped() throws Exception {
        ShuffleInput input = new ShuffleInput(SMALL, Set.of("a", "b"), ChannelTable.empty());
        Recorder task = new Recorder();
        input.accept(7, rows("a", new long[] {10, 0, 1}, new long[] {10, 1, 2}, new long[] {11, 0, 3}), task);
        // a retried batch, or the channel replaying from position 10: only (12, 0) is new
        input.accept(8, rows("a", new long[] {10, 1, 2}, new long[] {11, 0, 3}, new long[] {12, 0, 4}), task);
        // another channel's sequences are its own
        input.accept(9, rows("b", new long[] {10, 0, 5}), task);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), task.ids());
        assertEquals(List.of(7L << 16, 7L << 16 | 1, 7L << 16 | 2, 8L << 16 | 2, 9L << 16), task.positions);
        assertEquals(2, input.duplicatesDropped());
    }

    @Test
    void unsequencedRowsAreAlwaysPassedOn() throws Exception {
        ShuffleInput input = new ShuffleInput(SMALL, Set.of("a"), ChannelTable.empty());
        Recorder task = new Recorder();
        byte[] message = rows("a", new long[] {ShuffleCodec.UNSEQUENCED, 0, 1}, new long[] {5, 0, 2});
        input.accept(0, message, task);
        input.accept(1, message, task);
        assertEquals(List.of(1L, 2L, 1L), task.ids());
    }

    @Test
    void theWatermarkIsTheMinimumOverChannelsNotIdle() throws Exception {
        ShuffleInput input = new ShuffleInput(SMALL, Set.of("a", "b", "c"), ChannelTable.empty());
        Recorder task = new Recorder();
        input.accept(0, watermark("a", 10), task);
        input.accept(1, watermark("b", 20), task);
        assertEquals(Long.MIN_VALUE, input.watermark(), "c was never heard of: time holds");
        input.accept(2, idle("c", true), task);
        assertEquals(10, input.watermark(), "c is idle: left out");
        input.accept(3, watermark("a", 30), task);
        assertEquals(20, input.watermark());
        input.accept(4, idle("c", false), task);
        assertEquals(20, input.watermark(), "c is back without a watermark, but time never goes back");
        input.accept(5, watermark("b", 40), task);
        assertEquals(20, input.watermark(), "c holds it now");
        input.accept(6, watermark("c", 35), task);
        assertEquals(List.of(10L, 20L, 30L), task.watermarks);
        // An unexpected channel is taken in, and holds time back until it sends a watermark.
        input.accept(7, rows("d", new long[] {1, 0, 1}), task);
        input.accept(8, watermark("a", 50), task);
        input.accept(9, watermark("b", 50), task);
        input.accept(10, watermark("c", 50), task);
        assertEquals(30, input.watermark());
        input.accept(11, watermark("d", 45), task);
        assertEquals(List.of(10L, 20L, 30L, 45L), task.watermarks);
        // All idle: time holds.
        for (String c : List.of("a", "b", "c", "d")) {
            input.accept(12, idle(c, true), task);
        }
        assertEquals(45, input.watermark());
    }

    @Test
    void aRestoredTableKeepsSequencesAndTime() throws Exception {
        ShuffleInput input = new ShuffleInput(SMALL, Set.of("a", "b"), ChannelTable.empty());
        Recorder task = new Recorder();
        input.accept(0, rows("a", new long[] {3, 0, 1}, new long[] {3, 1, 2}), task);
        input.accept(1, watermark("a", 100), task);
        input.accept(2, watermark("b", 70), task);
        input.accept(3, idle("b", true), task);
        ChannelTable table = ChannelTable.fromBytes(input.snapshot().toBytes());
        assertEquals(input.snapshot(), table);
        assertEquals(new ChannelTable.Entry(3, 1, 100, false), table.channels().get("a"));
        assertEquals(new ChannelTable.Entry(-1, -1, 70, true), table.channels().get("b"));

        ShuffleInput restored = new ShuffleInput(SMALL, Set.of("a", "b"), table);
        assertEquals(100, restored.watermark());
        Recorder after = new Recorder();
        restored.accept(0, rows("a", new long[] {3, 0, 1}, new long[] {3, 1, 2}, new long[] {4, 0, 3}), after);
        assertEquals(List.of(3L), after.ids());
        assertEquals(2, restored.duplicatesDropped());
    }

    @Test
    void aMalformedTableIsRejected() {
        byte[] bytes = ChannelTable.empty().toBytes();
        bytes[0] = 9;
        assertThrows(IllegalArgumentException.class, () -> ChannelTable.fromBytes(bytes));
    }
}
