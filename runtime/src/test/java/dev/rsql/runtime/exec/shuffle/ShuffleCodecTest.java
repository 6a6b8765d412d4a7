package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.RowSerializerTest;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShuffleCodecTest {

    static final RowType SMALL = RowType.builder()
            .field("id", DataType.of(DataType.Kind.BIGINT))
            .field("name", DataType.string())
            .build();

    /** An event as decoded, comparable. */
    record Event(int index, String what, RowKind kind, long position, int n, List<Object> fields) {
        static Event row(int index, RowKind kind, long position, int n, Object... fields) {
            return new Event(index, "row", kind, position, n, Arrays.asList(fields));
        }

        static Event mark(int index, String what, long value) {
            return new Event(index, what, null, value, 0, List.of());
        }
    }

    static List<Event> decode(ShuffleCodec codec, byte[] message, List<String> channel) throws Exception {
        List<Event> events = new ArrayList<>();
        codec.decode(message, new ShuffleCodec.Visitor() {
            @Override
            public void channel(String id) {
                channel.add(id);
            }

            @Override
            public void row(int index, RowKind kind, long position, int n, Object[] fields) {
                events.add(Event.row(index, kind, position, position == ShuffleCodec.UNSEQUENCED ? 0 : n, fields));
            }

            @Override
            public void watermark(int index, long watermark) {
                events.add(Event.mark(index, "watermark", watermark));
            }

            @Override
            public void idle(int index, boolean idle) {
                events.add(Event.mark(index, idle ? "idle" : "active", 0));
            }
        });
        return events;
    }

    @Test
    void fieldsOfEveryTypeSurvive() throws Exception {
        RowType type = new RowType(names(RowSerializerTest.ALL_TYPES.size()), RowSerializerTest.ALL_TYPES);
        ShuffleCodec codec = new ShuffleCodec(type);
        ShuffleCodec.Encoder encoder = codec.encoder("t/broker-a/3");
        Object[] sample = RowSerializerTest.sample();
        Object[] nulls = new Object[sample.length];
        encoder.row(RowKind.UPDATE_AFTER, 17, 0, sample);
        encoder.row(RowKind.DELETE, ShuffleCodec.UNSEQUENCED, 0, nulls);
        List<Object[]> decoded = new ArrayList<>();
        List<RowKind> kinds = new ArrayList<>();
        codec.decode(encoder.finish(), new ShuffleCodec.Visitor() {
            @Override
            public void channel(String channel) {
                assertEquals("t/broker-a/3", channel);
            }

            @Override
            public void row(int index, RowKind kind, long position, int n, Object[] fields) {
                decoded.add(fields);
                kinds.add(kind);
            }

            @Override
            public void watermark(int index, long watermark) {
                throw new AssertionError("no watermark was sent");
            }

            @Override
            public void idle(int index, boolean idle) {
                throw new AssertionError("no mark was sent");
            }
        });
        assertEquals(List.of(RowKind.UPDATE_AFTER, RowKind.DELETE), kinds);
        // The serializer is deterministic (multisets come back sorted): equal bytes mean equal values.
        RowSerializer exact = RowSerializer.of(type);
        assertArrayEquals(exact.serialize(sample), exact.serialize(decoded.get(0)));
        assertEquals(Arrays.asList(nulls), Arrays.asList(decoded.get(1)));
        assertEquals(Byte.class, decoded.get(0)[1].getClass());
    }

    @Test
    void eventsAndSequencesComeBackInOrder() throws Exception {
        ShuffleCodec codec = new ShuffleCodec(SMALL);
        ShuffleCodec.Encoder encoder = codec.encoder("exchange-7/2");
        encoder.row(RowKind.INSERT, 0, 0, new Object[] {1L, "a"});                   // first row at (0, 0)
        encoder.row(RowKind.INSERT, 0, 1, new Object[] {2L, null});                  // same position, next n
        encoder.row(RowKind.UPDATE_BEFORE, 5, 0, new Object[] {3L, "c"});            // later position
        encoder.row(RowKind.UPDATE_AFTER, 5, 4, new Object[] {4L, "d"});             // n jumps (rows went elsewhere)
        encoder.row(RowKind.INSERT, ShuffleCodec.UNSEQUENCED, 0, new Object[] {5L, "timer"});
        encoder.row(RowKind.DELETE, (1L << 40) + 3, 2, new Object[] {6L, "f"});      // a shuffle task's position
        encoder.watermark(Long.MIN_VALUE);
        encoder.idle(true);
        encoder.watermark(-5);
        encoder.idle(false);
        encoder.row(RowKind.INSERT, (1L << 40) + 3, 3, new Object[] {7L, "g"});
        List<String> channel = new ArrayList<>();
        List<Event> events = decode(codec, encoder.finish(), channel);
        assertEquals(List.of("exchange-7/2"), channel);
        assertEquals(List.of(
                Event.row(0, RowKind.INSERT, 0, 0, 1L, "a"),
                Event.row(1, RowKind.INSERT, 0, 1, 2L, null),
                Event.row(2, RowKind.UPDATE_BEFORE, 5, 0, 3L, "c"),
                Event.row(3, RowKind.UPDATE_AFTER, 5, 4, 4L, "d"),
                Event.row(4, RowKind.INSERT, ShuffleCodec.UNSEQUENCED, 0, 5L, "timer"),
                Event.row(5, RowKind.DELETE, (1L << 40) + 3, 2, 6L, "f"),
                Event.mark(6, "watermark", Long.MIN_VALUE),
                Event.mark(7, "idle", 0),
                Event.mark(8, "watermark", -5),
                Event.mark(9, "active", 0),
                Event.row(10, RowKind.INSERT, (1L << 40) + 3, 3, 7L, "g")), events);
    }

    @Test
    void aNewerWatermarkReplacesTheLastEventOnlyIfThatIsAWatermark() throws Exception {
        ShuffleCodec codec = new ShuffleCodec(SMALL);
        ShuffleCodec.Encoder encoder = codec.encoder("c");
        encoder.watermark(10);
        encoder.watermark(20);
        encoder.row(RowKind.INSERT, 1, 0, new Object[] {1L, "a"});
        encoder.watermark(30);
        encoder.watermark(40);
        assertEquals(3, encoder.events());
        assertEquals(List.of(Event.mark(0, "watermark", 20), Event.row(1, RowKind.INSERT, 1, 0, 1L, "a"),
                Event.mark(2, "watermark", 40)), decode(codec, encoder.finish(), new ArrayList<>()));
        assertTrue(encoder.isEmpty(), "finish starts a new message");
    }

    @Test
    void consecutiveRowsCostTwoBytesBesidesTheirFields() {
        ShuffleCodec codec = new ShuffleCodec(SMALL);
        ShuffleCodec.Encoder encoder = codec.encoder("c");
        int header = encoder.bytes();
        RowSerializer fields = RowSerializer.of(SMALL);
        long fieldBytes = 0;
        for (int i = 0; i < 1000; i++) {
            Object[] row = {1_000_000L + i, "name-" + i};
            fieldBytes += fields.serialize(row).length;
            // a source task: one row per offset, offsets consecutive
            encoder.row(RowKind.INSERT, 1_000_000 + i, 0, row);
        }
        // tag + position delta of 1; the first row's position takes 3 bytes
        assertEquals(header + fieldBytes + 2 * 1000 + 2, encoder.bytes());
    }

    @Test
    void sequencesMustIncreaseWithinAMessage() {
        ShuffleCodec.Encoder encoder = new ShuffleCodec(SMALL).encoder("c");
        encoder.row(RowKind.INSERT, 10, 1, new Object[] {1L, "a"});
        assertThrows(IllegalArgumentException.class, () -> encoder.row(RowKind.INSERT, 10, 1, new Object[] {2L, "b"}));
        assertThrows(IllegalArgumentException.class, () -> encoder.row(RowKind.INSERT, 9, 5, new Object[] {2L, "b"}));
        assertThrows(IllegalArgumentException.class, () -> encoder.row(RowKind.INSERT, 11, -1, new Object[] {2L, "b"}));
        assertEquals(1, encoder.events());
    }

    @Test
    void aRowThatCannotBeWrittenLeavesTheMessageIntact() throws Exception {
        ShuffleCodec codec = new ShuffleCodec(SMALL);
        ShuffleCodec.Encoder encoder = codec.encoder("c");
        encoder.row(RowKind.INSERT, 1, 0, new Object[] {1L, "a"});
        assertThrows(IllegalArgumentException.class, () -> encoder.row(RowKind.INSERT, 2, 0, new Object[] {"x", 1}));
        encoder.row(RowKind.INSERT, 3, 0, new Object[] {3L, "c"});
        assertEquals(List.of(Event.row(0, RowKind.INSERT, 1, 0, 1L, "a"), Event.row(1, RowKind.INSERT, 3, 0, 3L, "c")),
                decode(codec, encoder.finish(), new ArrayList<>()));
    }

    @Test
    void aMessageHoldsAtMostMaxEvents() {
        ShuffleCodec.Encoder encoder = new ShuffleCodec(SMALL).encoder("c");
        for (int i = 0; i < ShuffleCodec.MAX_EVENTS; i++) {
            encoder.idle(i % 2 == 0);
        }
        assertTrue(encoder.isFull());
        assertThrows(IllegalStateException.class, () -> encoder.row(RowKind.INSERT, 1, 0, new Object[] {1L, "a"}));
    }

    @Test
    void malformedMessagesAreRejected() {
        ShuffleCodec codec = new ShuffleCodec(SMALL);
        ShuffleCodec.Encoder encoder = codec.encoder("c");
        encoder.row(RowKind.INSERT, 1, 0, new Object[] {1L, "abc"});
        byte[] message = encoder.finish();
        ShuffleCodec.Visitor ignore = new ShuffleCodec.Visitor() {
            @Override
            public void channel(String channel) {
            }

            @Override
            public void row(int index, RowKind kind, long position, int n, Object[] fields) {
            }

            @Override
            public void watermark(int index, long watermark) {
            }

            @Override
            public void idle(int index, boolean idle) {
            }
        };
        byte[] truncated = Arrays.copyOf(message, message.length - 2);
        assertThrows(IllegalArgumentException.class, () -> codec.decode(truncated, ignore));
        byte[] otherVersion = message.clone();
        otherVersion[0] = 2;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> codec.decode(otherVersion, ignore));
        assertTrue(e.getMessage().contains("version 2"), e.getMessage());
    }

    private static List<String> names(int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add("f" + i);
        }
        return names;
    }
}
