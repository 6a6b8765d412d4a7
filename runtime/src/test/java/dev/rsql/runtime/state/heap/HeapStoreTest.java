package dev.rsql.runtime.state.heap;

import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.store.KeyBuffer;
import dev.rsql.runtime.state.store.StateColumnFamily;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeapStoreTest {

    private static final HexFormat HEX = HexFormat.of();

    @TempDir
    Path dir;

    /** A stored value key: [state 4][key group 2][key length: varint][key][namespace]. */
    static byte[] valueKey(int state, int group, byte[] key, byte[] namespace) {
        byte[] b = new byte[7 + key.length + namespace.length];
        b[3] = (byte) state;
        b[5] = (byte) group;
        b[6] = (byte) key.length;
        System.arraycopy(key, 0, b, 7, key.length);
        System.arraycopy(namespace, 0, b, 7 + key.length, namespace.length);
        return b;
    }

    static List<String> scan(HeapStore store, byte[] from, byte[] to) {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<String> it = store.scan(StateColumnFamily.VALUES, from, to,
                (k, v) -> HEX.formatHex(k) + "=" + HEX.formatHex(v))) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    static List<String> model(TreeMap<String, String> model, byte[] from, byte[] to) {
        List<String> out = new ArrayList<>();
        Map<String, String> range = to == null ? model.tailMap(HEX.formatHex(from))
                : model.subMap(HEX.formatHex(from), HEX.formatHex(to));
        range.forEach((k, v) -> out.add(k + "=" + v));
        return out;
    }

    /**
     * Random writes and deletes of values, compared with a sorted map of the same keys: gets, a key's values, a state's
     * values and the whole family, each in key order (hex strings of equal-length prefixes sort as the bytes do).
     */
    @Test
    void valuesBehaveAsASortedMap() {
        Random random = new Random(7);
        try (HeapStore store = HeapStore.empty(new HeapStateMemory(64L << 20), "test")) {
            TreeMap<String, String> model = new TreeMap<>();
            for (int step = 0; step < 20_000; step++) {
                byte[] key = valueKey(random.nextInt(3), random.nextInt(2), new byte[] {(byte) random.nextInt(8)},
                        random.nextBoolean() ? new byte[0] : new byte[] {(byte) random.nextInt(200), 1});
                if (random.nextInt(4) == 0) {
                    store.delete(StateColumnFamily.VALUES, key, key.length);
                    model.remove(HEX.formatHex(key));
                } else {
                    byte[] value = {(byte) step, (byte) (step >> 8)};
                    // a longer reused buffer: only its first bytes are the key
                    byte[] buf = Arrays.copyOf(key, key.length + 5);
                    store.put(StateColumnFamily.VALUES, buf, key.length, value);
                    model.put(HEX.formatHex(key), HEX.formatHex(value));
                }
                if (step % 1000 == 0) {
                    for (int state = 0; state < 3; state++) {
                        byte[] from = {0, 0, 0, (byte) state};
                        byte[] to = KeyBuffer.successor(from);
                        assertEquals(model(model, from, to), scan(store, from, to), "state " + state);
                        byte[] prefix = valueKey(state, 1, new byte[] {3}, new byte[0]);
                        assertEquals(model(model, prefix, KeyBuffer.successor(prefix)),
                                scan(store, prefix, KeyBuffer.successor(prefix)), "one key of state " + state);
                    }
                    assertEquals(model(model, new byte[0], null), scan(store, new byte[0], null));
                }
            }
            for (int state = 0; state < 3; state++) {
                for (int k = 0; k < 8; k++) {
                    byte[] key = valueKey(state, 0, new byte[] {(byte) k}, new byte[0]);
                    String expected = model.get(HEX.formatHex(key));
                    byte[] value = store.get(StateColumnFamily.VALUES, key, key.length);
                    assertEquals(expected, value == null ? null : HEX.formatHex(value));
                }
            }
        }
    }

    @Test
    void stateBeyondItsShareOfTheHeapFailsWithAnErrorThatSaysWhatToDo() {
        HeapStateMemory memory = new HeapStateMemory(4L << 20);
        try (HeapStore store = HeapStore.empty(memory, "task t1")) {
            StateException e = assertThrows(StateException.class, () -> {
                for (int i = 0; ; i++) {
                    byte[] key = valueKey(1, 0, Integer.toString(i).getBytes(), new byte[0]);
                    store.put(StateColumnFamily.VALUES, key, key.length, new byte[100]);
                }
            });
            assertTrue(e.getMessage().contains("task t1") && e.getMessage().contains("state.backend.type")
                    && e.getMessage().contains("4 MB"), e.getMessage());
            assertTrue(memory.reserved() <= 4L << 20);
        }
        assertEquals(0, memory.reserved(), "a closed store gives its share back");
    }

    @Test
    void deletesGiveMemoryBack() {
        HeapStateMemory memory = new HeapStateMemory(64L << 20);
        try (HeapStore store = HeapStore.empty(memory, "test")) {
            List<byte[]> keys = new ArrayList<>();
            for (int i = 0; i < 50_000; i++) {
                byte[] key = valueKey(1, 0, Integer.toString(i).getBytes(), new byte[] {1, 2});
                keys.add(key);
                store.put(StateColumnFamily.VALUES, key, key.length, new byte[64]);
            }
            long full = memory.reserved();
            assertTrue(store.memoryUsage() > 50_000 * 64 && full >= store.memoryUsage(), store.memoryUsage() + "");
            for (byte[] key : keys) {
                store.delete(StateColumnFamily.VALUES, key, key.length);
            }
            // what remains: the tables' slots and the pages written since the last compaction
            assertTrue(store.memoryUsage() < full / 2, store.memoryUsage() + " of " + full);
            assertTrue(memory.reserved() <= store.memoryUsage() + 2 * HeapStateMemory.CHUNK,
                    "reserved " + memory.reserved());
        }
    }

    @Test
    void aDamagedSnapshotIsRefused() throws Exception {
        Path snapshot = dir.resolve("chk");
        try (HeapStore store = HeapStore.empty(new HeapStateMemory(64L << 20), "test")) {
            for (int i = 10; i < 100; i++) {   // keys of one length: the first value is at a known offset
                byte[] key = valueKey(1, 0, Integer.toString(i).getBytes(), new byte[0]);
                store.put(StateColumnFamily.VALUES, key, key.length, new byte[] {(byte) i});
            }
            store.put(StateColumnFamily.TIMERS, new byte[] {9, 9}, 2, new byte[0]);
            store.snapshot(snapshot);
            assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> store.snapshot(snapshot));
        }
        try (HeapStore restored = HeapStore.restore(snapshot, new HeapStateMemory(64L << 20), "test")) {
            byte[] key = valueKey(1, 0, "42".getBytes(), new byte[0]);
            assertArrayEquals(new byte[] {42}, restored.get(StateColumnFamily.VALUES, key, key.length));
            assertArrayEquals(new byte[0], restored.get(StateColumnFamily.TIMERS, new byte[] {9, 9}, 2));
            assertNull(restored.get(StateColumnFamily.TIMERS, new byte[] {9}, 1));
        }
        Path file = snapshot.resolve(HeapSnapshot.FILE);
        byte[] whole = Files.readAllBytes(file);

        int firstValue = 8 + 4 + 1 + 4 + 9 + 4;  // header, column family, key length, key, value length
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(firstValue);
            raf.write(whole[firstValue] ^ 0x01);
        }
        IOException damaged = assertThrows(IOException.class,
                () -> HeapStore.restore(snapshot, new HeapStateMemory(64L << 20), "test"));
        assertTrue(damaged.getMessage().contains("damaged"), damaged.getMessage());

        Files.write(file, Arrays.copyOf(whole, whole.length - 3));
        IOException truncated = assertThrows(IOException.class,
                () -> HeapStore.restore(snapshot, new HeapStateMemory(64L << 20), "test"));
        assertTrue(truncated.getMessage().contains("truncated"), truncated.getMessage());
    }
}
