package dev.rsql.planner.functions.udf;

import dev.rsql.runtime.exec.StateBackendType;
import dev.rsql.planner.calcite.RsqlTypeSystem;
import dev.rsql.runtime.state.ByteWriter;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.store.StoreStateBackend;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.flink.table.functions.AggregateFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Accumulator state is data: its layout comes from the declared accumulator class, and crafted bytes (a Java
 * serialization gadget, huge counts, an old class-naming layout) are rejected with a {@link StateException} naming
 * the function, on their own and after a RocksDB checkpoint restore.
 */
class AccumulatorSerializerTest {

    @TempDir
    Path dir;

    enum Mode { FIRST, LAST }

    public static class Node {
        public long value;
        public Node next;
    }

    /** Serializable, no constructor without arguments: stored by Java serialization behind the allow-list. */
    public static final class Holder implements Serializable {
        private static final long serialVersionUID = 1L;
        final String label;
        final ArrayList<Long> values;

        public Holder(String label, ArrayList<Long> values) {
            this.label = label;
            this.values = values;
        }
    }

    public static class Counts {
        public List<Long> seen;
    }

    public static class Acc {
        public long count;
        public double sum;
        public Integer boxed;
        public String name;
        public java.math.BigDecimal total;
        public List<Long> seen = new ArrayList<>();
        public Map<String, Integer> perKey = new HashMap<>();
        public int[] histogram = new int[3];
        public Mode mode = Mode.FIRST;
        public Object anything;
        public Node chain;
        public Holder holder;
    }

    /** Set when a crafted stream gets as far as running code of a class it names. */
    static final AtomicBoolean GADGET_RAN = new AtomicBoolean();

    public static final class Gadget implements Serializable {
        private static final long serialVersionUID = 1L;

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            GADGET_RAN.set(true);
        }
    }

    public static class AccFunction extends AggregateFunction<Long, Acc> {
        @Override
        public Acc createAccumulator() {
            return new Acc();
        }

        public void accumulate(Acc acc, long v) {
            acc.count += v;
        }

        @Override
        public Long getValue(Acc acc) {
            return acc.count;
        }
    }

    private static Acc sample() {
        Acc a = new Acc();
        a.count = 7;
        a.sum = 2.5;
        a.boxed = null;
        a.name = "x";
        a.total = new java.math.BigDecimal("12.340");
        a.seen.addAll(List.of(1L, 2L));
        a.perKey.put("k", 3);
        a.histogram[1] = 9;
        a.mode = Mode.LAST;
        a.anything = new ArrayList<>(List.of("s", 4L));
        a.chain = new Node();
        a.chain.value = 1;
        a.chain.next = new Node();
        a.chain.next.value = 2;
        a.holder = new Holder("h", new ArrayList<>(List.of(5L)));
        return a;
    }

    private static byte[] javaSerialize(Object o) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(b)) {
            out.writeObject(o);
        }
        return b.toByteArray();
    }

    /** The bytes of {@code legit} with its Java-serialized holder (length-prefixed) replaced by {@code payload}. */
    private static byte[] withHolderBytes(byte[] legit, Holder holder, byte[] payload) throws IOException {
        byte[] blob = javaSerialize(holder);
        int at = -1;
        for (int i = 0; i + blob.length <= legit.length && at < 0; i++) {
            if (Arrays.equals(legit, i, i + blob.length, blob, 0, blob.length)) {
                at = i - 4;
            }
        }
        assertTrue(at > 0, "the holder's Java serialization is in the accumulator's bytes");
        ByteWriter w = new ByteWriter(legit.length + payload.length);
        w.writeBytes(legit, 0, at);
        w.writeInt(payload.length);
        w.writeBytes(payload);
        w.writeBytes(legit, at + 4 + blob.length, legit.length - at - 4 - blob.length);
        return w.toByteArray();
    }

    @Test
    void roundTripsTheDeclaredTypesWithoutNamingAClass() {
        AccumulatorSerializer s = AccumulatorSerializer.of("f", Acc.class);
        byte[] bytes = s.serialize(sample());
        Acc back = (Acc) s.deserialize(bytes);
        assertEquals(7, back.count);
        assertEquals(2.5, back.sum);
        assertNull(back.boxed);
        assertEquals("x", back.name);
        assertEquals(new java.math.BigDecimal("12.340"), back.total);
        assertEquals(List.of(1L, 2L), back.seen);
        assertEquals(Map.of("k", 3), back.perKey);
        assertArrayEquals(new int[] {0, 9, 0}, back.histogram);
        assertEquals(Mode.LAST, back.mode);
        assertEquals(List.of("s", 4L), back.anything);
        assertEquals(2, back.chain.next.value);
        assertNull(back.chain.next.next);
        assertEquals("h", back.holder.label);
        assertEquals(List.of(5L), back.holder.values);
        assertArrayEquals(bytes, s.serialize(back), "equal accumulators, equal bytes");
        // Only a Java-serialized holder names classes (its own); the POJO layout names none.
        back.holder = null;
        String text = new String(s.serialize(back), StandardCharsets.ISO_8859_1);
        assertFalse(text.contains("AccumulatorSerializerTest$Acc"), text);
        assertFalse(text.contains("AccumulatorSerializerTest$Node"), text);
        assertFalse(text.contains("java.util.ArrayList"), "the seen list is written as values");
    }

    @Test
    void refusesAtPlanTimeAnAccumulatorThatCannotBeStored() {
        class NoState {
            final Thread thread;

            NoState(Thread thread) {
                this.thread = thread;
            }
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AccumulatorSerializer.of("f", NoState.class));
        assertTrue(e.getMessage().contains("aggregate function f"), e.getMessage());
    }

    @Test
    void rejectsAJavaSerializationGadgetInState() throws IOException {
        AccumulatorSerializer s = AccumulatorSerializer.of("f", Acc.class);
        Acc legit = sample();
        byte[] bytes = s.serialize(legit);
        for (Object gadget : List.of(new Gadget(), new PriorityQueue<>(List.of(3, 1, 2)),
                new HashMap<>(Map.of("k", new Gadget())))) {
            byte[] crafted = withHolderBytes(bytes, legit.holder, javaSerialize(gadget));
            StateException e = assertThrows(StateException.class, () -> s.deserialize(crafted));
            assertTrue(e.getMessage().contains("aggregate function f") && e.getMessage().contains("not allowed"),
                    e.getMessage());
        }
        assertFalse(GADGET_RAN.get(), "no code of a class named by the state ran");
    }

    @Test
    void rejectsMalformedBytesWithoutHugeAllocations() {
        AccumulatorSerializer s = AccumulatorSerializer.of("f", Counts.class);
        Counts c = new Counts();
        c.seen = new ArrayList<>(List.of(1L, 2L));
        byte[] good = s.serialize(c);
        int countAt = 2; // after the format byte and the list's null marker
        byte[] huge = good.clone();
        huge[countAt] = (byte) 0xff;
        huge[countAt + 1] = (byte) 0xff;
        huge[countAt + 2] = (byte) 0xff;
        huge[countAt + 3] = (byte) 0x7f;
        List<byte[]> bad = List.of(huge, Arrays.copyOf(good, good.length - 1), Arrays.copyOf(good, good.length + 1),
                new byte[0], new byte[] {21, 0, 0, 0, 4, 'j', 'a', 'v', 'a'});
        for (byte[] b : bad) {
            StateException e = assertThrows(StateException.class, () -> s.deserialize(b));
            assertTrue(e.getMessage().startsWith("cannot restore an accumulator of aggregate function f"),
                    e.getMessage());
        }
        StateException old = assertThrows(StateException.class, () -> s.deserialize(bad.get(4)));
        assertTrue(old.getMessage().contains("older engine version"), old.getMessage());
    }

    @Test
    void rejectsDeepNestingInState() {
        AccumulatorSerializer s = AccumulatorSerializer.of("f", Node.class);
        ByteWriter w = new ByteWriter(64);
        w.writeByte(0x41);
        for (int i = 0; i < 10_000; i++) {
            w.writeByte(1); // a node, and its first field (next) a node again
        }
        StateException e = assertThrows(StateException.class, () -> s.deserialize(w.toByteArray()));
        assertTrue(e.getMessage().contains("levels deep"), e.getMessage());
    }

    @Test
    void craftedAccumulatorInARocksDbCheckpointIsRejectedOnRestore() throws Exception {
        JavaTypeFactoryImpl types = new JavaTypeFactoryImpl(RsqlTypeSystem.INSTANCE);
        UserAggregateFunction function = UserAggregateFunction.of("acc_fn", AccFunction.class, types, t -> {
            throw new UnsupportedOperationException(t);
        });
        UdafAdapter adapter = function.adapterFactory(new int[] {0},
                List.of(types.createSqlType(SqlTypeName.BIGINT))).get();
        RowSerializer rows = new RowSerializer(adapter.accumulatorTypes());
        Acc legit = sample();
        byte[] crafted = withHolderBytes(function.serializer().serialize(legit), legit.holder,
                javaSerialize(new Gadget()));
        byte[] key = "k".getBytes(StandardCharsets.UTF_8);
        Path checkpoint = dir.resolve("chk-1");
        try (StoreStateBackend backend = StateBackendType.ROCKSDB.openBackend(dir.resolve("task"), null, 8)) {
            KeyedValueState<Object[]> state = backend.valueState("agg", "acc", rows);
            state.put(key, Namespaces.EMPTY, new Object[] {crafted});
            backend.snapshot(checkpoint);
        }
        try (StoreStateBackend restored = StateBackendType.ROCKSDB.openBackend(dir.resolve("task2"), checkpoint, 8)) {
            Object[] acc = restored.valueState("agg", "acc", rows).get(key, Namespaces.EMPTY);
            StateException e = assertThrows(StateException.class, () -> adapter.getValue(acc, 0));
            assertTrue(e.getMessage().contains("acc_fn") && e.getMessage().contains(Gadget.class.getName())
                    && e.getMessage().contains("not allowed"), e.getMessage());
        }
        assertFalse(GADGET_RAN.get());
    }
}
