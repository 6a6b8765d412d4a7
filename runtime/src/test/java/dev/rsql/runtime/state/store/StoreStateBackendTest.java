package dev.rsql.runtime.state.store;

import dev.rsql.runtime.exec.StateBackendType;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyGroups;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.LongSerializer;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.StringSerializer;
import dev.rsql.runtime.types.DataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ParameterizedClass
@EnumSource(StateBackendType.class)
class StoreStateBackendTest {

    static final byte[] NS = Namespaces.EMPTY;

    @Parameter
    StateBackendType type;

    @TempDir
    Path dir;

    StoreStateBackend backend;

    @BeforeEach
    void open() throws Exception {
        backend = type.openBackend(dir.resolve("task"), null, 128);
    }

    @AfterEach
    void close() {
        backend.close();
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void getPutRemove() {
        KeyedValueState<Long> counts = backend.valueState("agg-1", "count", LongSerializer.INSTANCE);
        assertNull(counts.get(b("k"), NS));
        counts.put(b("k"), NS, 1L);
        counts.put(b("k"), NS, 2L);
        assertEquals(2L, counts.get(b("k"), NS));
        counts.remove(b("k"), NS);
        assertNull(counts.get(b("k"), NS));
        counts.put(b("k"), NS, 3L);
        counts.put(b("k"), NS, null); // null removes
        assertNull(counts.get(b("k"), NS));
        counts.remove(b("never-there"), NS);
        assertEquals(128, backend.keyGroups());
    }

    @Test
    void operatorsAndStatesWithEqualKeysAreIsolated() {
        KeyedValueState<String> a1 = backend.valueState("op-a", "s1", StringSerializer.INSTANCE);
        KeyedValueState<String> a2 = backend.valueState("op-a", "s2", StringSerializer.INSTANCE);
        KeyedValueState<String> b1 = backend.valueState("op-b", "s1", StringSerializer.INSTANCE);
        // "op-a/s1" + "x" must not meet "op-a" + "/s1x" style concatenations either
        KeyedValueState<String> tricky = backend.valueState("op-a/s", "1", StringSerializer.INSTANCE);
        for (KeyedValueState<String> s : List.of(a1, a2, b1, tricky)) {
            s.put(b("key"), NS, s.toString());
            s.put(b("key"), Namespaces.window(0, 10), "w-" + s);
        }
        for (KeyedValueState<String> s : List.of(a1, a2, b1, tricky)) {
            assertEquals(s.toString(), s.get(b("key"), NS));
            assertEquals("w-" + s, s.get(b("key"), Namespaces.window(0, 10)));
            assertEquals(2, drain(s.all()).size());
        }
        a1.remove(b("key"), NS);
        assertNull(a1.get(b("key"), NS));
        assertNotNull(a2.get(b("key"), NS));
        assertNotNull(b1.get(b("key"), NS));
    }

    @Test
    void keysWithAnyBytesWork() {
        KeyedValueState<String> s = backend.valueState("op", "v", StringSerializer.INSTANCE);
        // separators, prefixes of each other, empty, all byte values, and lengths around the varint boundary
        List<byte[]> keys = new ArrayList<>(List.of(new byte[0], b("a"), b("a&&b"), b("a&&"), b("&&a"),
                new byte[] {0}, new byte[] {0, 0}, new byte[] {(byte) 0xff}, new byte[] {(byte) 0xff, (byte) 0xff},
                b("watermark_key@x"), new byte[127], new byte[128], new byte[300]));
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        keys.add(all);
        // a key equal to another key followed by namespace bytes must not be confused with it
        byte[] window = Namespaces.window(5, 6);
        byte[] aPlusWindow = new byte[1 + 16];
        aPlusWindow[0] = 'a';
        System.arraycopy(window, 0, aPlusWindow, 1, 16);
        keys.add(aPlusWindow);
        for (int i = 0; i < keys.size(); i++) {
            s.put(keys.get(i), NS, "v" + i);
            s.put(keys.get(i), window, "w" + i);
        }
        for (int i = 0; i < keys.size(); i++) {
            assertEquals("v" + i, s.get(keys.get(i), NS), "key " + i);
            assertEquals("w" + i, s.get(keys.get(i), window), "key " + i);
            List<StateEntry<String>> entries = drain(s.entries(keys.get(i)));
            assertEquals(2, entries.size(), "key " + i);
            for (StateEntry<String> e : entries) {
                assertArrayEquals(keys.get(i), e.key());
            }
        }
        assertEquals(2 * keys.size(), drain(s.all()).size());
    }

    @Test
    void entriesReturnOneKeysNamespacesInOrder() {
        KeyedValueState<Long> s = backend.valueState("win", "acc", LongSerializer.INSTANCE);
        long[][] windows = {{10, 20}, {-30, -20}, {0, 10}, {10, 15}, {-5, 5}, {Long.MIN_VALUE, 0}};
        for (long[] w : windows) {
            s.put(b("k1"), Namespaces.window(w[0], w[1]), w[0] * 1000 + w[1]);
        }
        s.put(b("k2"), Namespaces.window(0, 10), -1L);
        s.put(b("k"), Namespaces.window(0, 10), -2L);
        s.put(b("k10"), Namespaces.window(0, 10), -3L);

        List<StateEntry<Long>> entries = drain(s.entries(b("k1")));
        List<long[]> got = new ArrayList<>();
        for (StateEntry<Long> e : entries) {
            assertArrayEquals(b("k1"), e.key());
            long start = Namespaces.windowStart(e.namespace());
            long end = Namespaces.windowEnd(e.namespace());
            assertEquals(start * 1000 + end, e.value());
            got.add(new long[] {start, end});
        }
        long[][] expected = {{Long.MIN_VALUE, 0}, {-30, -20}, {-5, 5}, {0, 10}, {10, 15}, {10, 20}};
        assertArrayEquals(expected, got.toArray(new long[0][]));

        s.remove(b("k1"), Namespaces.window(-5, 5));
        assertEquals(5, drain(s.entries(b("k1"))).size());
        assertEquals(0, drain(s.entries(b("nobody"))).size());
        assertEquals(1, drain(s.entries(b("k"))).size());
    }

    @Test
    void allCoversEveryValueInKeyGroupOrder() {
        KeyedValueState<Long> s = backend.valueState("op", "v", LongSerializer.INSTANCE);
        KeyedValueState<Long> other = backend.valueState("op", "other", LongSerializer.INSTANCE);
        Map<String, Long> expected = new HashMap<>();
        for (int i = 0; i < 2000; i++) {
            s.put(b("key" + i), NS, (long) i);
            other.put(b("key" + i), NS, -1L);
            expected.put("key" + i, (long) i);
        }
        for (int i = 0; i < 2000; i += 3) {
            s.remove(b("key" + i), NS);
            expected.remove("key" + i);
        }
        Map<String, Long> seen = new HashMap<>();
        int lastGroup = -1;
        try (CloseableIterator<StateEntry<Long>> it = s.all()) {
            while (it.hasNext()) {
                StateEntry<Long> e = it.next();
                int group = KeyGroups.of(e.key(), 128);
                assertTrue(group >= lastGroup, "key group order");
                lastGroup = group;
                assertNull(seen.put(new String(e.key(), StandardCharsets.UTF_8), e.value()));
                assertArrayEquals(NS, e.namespace());
            }
            assertThrows(NoSuchElementException.class, it::next);
        }
        assertEquals(expected, seen);
    }

    @Test
    void iteratorsSeeASnapshotAndMayModifyWhileIterating() {
        KeyedValueState<Long> s = backend.valueState("op", "v", LongSerializer.INSTANCE);
        for (long i = 0; i < 10; i++) {
            s.put(b("k"), Namespaces.window(i, i + 1), i);
        }
        int n = 0;
        try (CloseableIterator<StateEntry<Long>> it = s.entries(b("k"))) {
            while (it.hasNext()) {
                StateEntry<Long> e = it.next();
                s.remove(e.key(), e.namespace());
                s.put(b("k"), Namespaces.window(100 + n, 101 + n), 0L);
                n++;
            }
        }
        assertEquals(10, n);
        assertEquals(10, drain(s.entries(b("k"))).size());
    }

    @Test
    void rowValuesAndKeys() {
        List<DataType> keyTypes = List.of(DataType.string(), DataType.decimal(10, 2));
        RowSerializer keys = RowSerializer.forKeys(keyTypes);
        RowSerializer values = new RowSerializer(List.of(DataType.of(DataType.Kind.BIGINT), DataType.string()));
        KeyedValueState<Object[]> s = backend.valueState("agg", "acc", values);
        s.put(keys.serialize(new Object[] {"a", new BigDecimal("1.0")}), NS, new Object[] {1L, "x"});
        Object[] got = s.get(keys.serialize(new Object[] {"a", new BigDecimal("1.00")}), NS);
        assertArrayEquals(new Object[] {1L, "x"}, got);
    }

    @Test
    void sameArgumentsGiveTheSameState() {
        KeyedValueState<Long> a = backend.valueState("op", "v", LongSerializer.INSTANCE);
        assertSame(a, backend.valueState("op", "v", LongSerializer.INSTANCE));
        assertSame(backend.timerService("op"), backend.timerService("op"));
    }

    @Test
    void idCollisionsFailLoudly() {
        // find two names whose ids collide (a 32-bit hash: a birthday search needs ~2^16 tries)
        Map<Integer, String> seen = new HashMap<>();
        String first = null;
        String second = null;
        for (int i = 0; second == null; i++) {
            String name = "s" + i;
            String prev = seen.putIfAbsent(StoreStateBackend.idOf("op/" + name), name);
            if (prev != null) {
                first = prev;
                second = name;
            }
        }
        backend.valueState("op", first, LongSerializer.INSTANCE);
        String other = second;
        StateException e = assertThrows(StateException.class,
                () -> backend.valueState("op", other, LongSerializer.INSTANCE));
        assertTrue(e.getMessage().contains("collision"), e.getMessage());

        // equal concatenations of different (operator, name) pairs are told apart
        backend.valueState("a/b", "c", LongSerializer.INSTANCE);
        assertThrows(StateException.class, () -> backend.valueState("a", "b/c", LongSerializer.INSTANCE));
    }

    @Test
    void closeReleasesOpenIteratorsAndRejectsUse() {
        KeyedValueState<Long> s = backend.valueState("op", "v", LongSerializer.INSTANCE);
        s.put(b("k"), NS, 1L);
        CloseableIterator<StateEntry<Long>> leaked = s.all();
        assertTrue(leaked.hasNext());
        backend.close();
        assertFalse(leaked.hasNext());
        assertThrows(IllegalStateException.class, () -> s.get(b("k"), NS));
        assertThrows(IllegalStateException.class, () -> s.put(b("k"), NS, 1L));
        assertThrows(IllegalStateException.class, s::all);
        assertThrows(IllegalStateException.class, () -> backend.valueState("op", "w", LongSerializer.INSTANCE));
        backend.close(); // idempotent
    }

    static <T> List<T> drain(CloseableIterator<T> it) {
        List<T> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                out.add(it.next());
            }
        }
        return out;
    }

    static String str(byte[] bytes) {
        return Arrays.toString(bytes);
    }
}
