package dev.rsql.runtime.state.store;

import dev.rsql.runtime.exec.StateBackendType;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.LongSerializer;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.TimerService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static dev.rsql.runtime.state.store.StoreStateBackendTest.drain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ParameterizedClass
@EnumSource(StateBackendType.class)
class StoreSnapshotTest {

    static final byte[] NS = Namespaces.EMPTY;

    @Parameter
    StateBackendType type;

    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static List<String> fire(TimerService timers, long watermark) throws Exception {
        List<String> fired = new ArrayList<>();
        timers.fireEventTimeTimers(watermark, (t, k, ns) -> fired.add(t + ":" + new String(k, StandardCharsets.UTF_8)));
        return fired;
    }

    static Map<String, Long> contents(KeyedValueState<Long> state) {
        Map<String, Long> out = new TreeMap<>();
        for (StateEntry<Long> e : drain(state.all())) {
            String ns = e.namespace().length == 0 ? "" : "@" + Namespaces.windowStart(e.namespace());
            out.put(new String(e.key(), StandardCharsets.UTF_8) + ns, e.value());
        }
        return out;
    }

    @Test
    void restoreSeesExactlyTheSnapshot() throws Exception {
        Path snapshot = dir.resolve("checkpoints/chk-1");
        try (StoreStateBackend backend = type.openBackend(dir.resolve("task"), null, 32)) {
            KeyedValueState<Long> s = backend.valueState("op", "v", LongSerializer.INSTANCE);
            TimerService timers = backend.timerService("op");
            s.put(b("a"), NS, 1L);
            s.put(b("b"), Namespaces.window(0, 10), 2L);
            s.put(b("deleted"), NS, 3L);
            s.remove(b("deleted"), NS);
            timers.registerEventTimeTimer(10, b("b"), NS);
            timers.registerEventTimeTimer(-5, b("neg"), NS);
            timers.registerProcessingTimeTimer(777, b("p"), NS);

            backend.snapshot(snapshot); // memtables only, nothing flushed before: must still be complete

            s.put(b("a"), NS, 100L);
            s.put(b("after"), NS, 4L);
            s.remove(b("b"), Namespaces.window(0, 10));
            timers.registerEventTimeTimer(5, b("after"), NS);
            timers.deleteEventTimeTimer(10, b("b"), NS);
            assertThrows(FileAlreadyExistsException.class, () -> backend.snapshot(snapshot));
        }

        try (StoreStateBackend restored = type.openBackend(dir.resolve("task"), snapshot, 32)) {
            KeyedValueState<Long> s = restored.valueState("op", "v", LongSerializer.INSTANCE);
            assertEquals(Map.of("a", 1L, "b@0", 2L), contents(s));
            assertNull(s.get(b("deleted"), NS));
            assertNull(s.get(b("after"), NS));
            StoreTimerService timers = (StoreTimerService) restored.timerService("op");
            assertEquals(2, timers.seeks(), "the in-memory minimum is rebuilt with one seek per kind");
            assertEquals(777, timers.nextProcessingTime());
            assertEquals(-5, timers.nextEventTime());
            assertEquals(List.of("-5:neg", "10:b"), fire(timers, 100));
        }

        // the snapshot was not changed by the restored backend's writes: restore it again
        try (StoreStateBackend again = type.openBackend(dir.resolve("other-task"), snapshot, 32)) {
            KeyedValueState<Long> s = again.valueState("op", "v", LongSerializer.INSTANCE);
            assertEquals(Map.of("a", 1L, "b@0", 2L), contents(s));
            assertEquals(List.of("-5:neg", "10:b"), fire(again.timerService("op"), 100));
        }
    }

    @Test
    void aSnapshotRestoresIntoTheOtherType() throws Exception {
        StateBackendType other = type == StateBackendType.ROCKSDB ? StateBackendType.HASHMAP
                : StateBackendType.ROCKSDB;
        Path snapshot = dir.resolve("chk");
        try (StoreStateBackend backend = type.openBackend(dir.resolve("task"), null, 8)) {
            backend.valueState("op", "v", LongSerializer.INSTANCE).put(b("a"), NS, 1L);
            backend.valueState("op", "v", LongSerializer.INSTANCE).put(b("b"), Namespaces.window(0, 10), 2L);
            backend.timerService("op").registerEventTimeTimer(10, b("b"), NS);
            backend.snapshot(snapshot);
        }
        try (StoreStateBackend restored = other.openBackend(dir.resolve("task2"), snapshot, 8)) {
            assertEquals(Map.of("a", 1L, "b@0", 2L), contents(restored.valueState("op", "v",
                    LongSerializer.INSTANCE)));
            assertEquals(List.of("10:b"), fire(restored.timerService("op"), 100));
        }
        IOException e = assertThrows(IOException.class, () -> other.openBackend(dir.resolve("task3"), snapshot, 16));
        assertTrue(e.getMessage().contains("key groups"), e.getMessage());
    }

    @Test
    void deletesStayDeletedAcrossSnapshotsAndCompactions() throws Exception {
        Path first = dir.resolve("chk-1");
        Path second = dir.resolve("chk-2");
        try (StoreStateBackend backend = type.openBackend(dir.resolve("task"), null, 8)) {
            KeyedValueState<Long> s = backend.valueState("op", "v", LongSerializer.INSTANCE);
            for (int i = 0; i < 1000; i++) {
                s.put(b("k" + i), NS, (long) i);
            }
            backend.snapshot(first); // the values are now in an SST file
        }
        try (StoreStateBackend backend = type.openBackend(dir.resolve("task"), first, 8)) {
            KeyedValueState<Long> s = backend.valueState("op", "v", LongSerializer.INSTANCE);
            TimerService timers = backend.timerService("op");
            timers.registerEventTimeTimer(1, b("gone"), NS);
            fire(timers, 1);
            for (int i = 0; i < 1000; i += 2) {
                s.remove(b("k" + i), NS); // tombstones over values in the restored SST
            }
            backend.snapshot(second);
        }
        try (StoreStateBackend backend = type.openBackend(dir.resolve("task"), second, 8)) {
            KeyedValueState<Long> s = backend.valueState("op", "v", LongSerializer.INSTANCE);
            assertEquals(500, drain(s.all()).size());
            assertNull(s.get(b("k0"), NS));
            assertEquals(1L, s.get(b("k1"), NS));
            assertEquals(List.of(), fire(backend.timerService("op"), Long.MAX_VALUE));
        }
    }

    @Test
    void restoreChecksWhatItRestores() throws Exception {
        Path snapshot = dir.resolve("chk");
        try (StoreStateBackend backend = type.openBackend(dir.resolve("task"), null, 8)) {
            backend.valueState("op", "v", LongSerializer.INSTANCE);
            backend.snapshot(snapshot);
        }
        IOException e = assertThrows(IOException.class,
                () -> type.openBackend(dir.resolve("task"), snapshot, 16));
        assertTrue(e.getMessage().contains("key groups"), e.getMessage());
        assertThrows(IOException.class, () -> type.openBackend(dir.resolve("task"), dir.resolve("none"), 8));
        if (type == StateBackendType.ROCKSDB) {
            assertThrows(IllegalArgumentException.class,
                    () -> type.openBackend(dir.resolve("task"), dir.resolve("task/db"), 8));
        }
        try (StoreStateBackend backend = type.openBackend(dir.resolve("task"), snapshot, 8)) {
            backend.valueState("op", "v", LongSerializer.INSTANCE);
        }
    }

    @Test
    void restoredIdsStillDetectCollisions() throws Exception {
        Path snapshot = dir.resolve("chk");
        try (StoreStateBackend backend = type.openBackend(dir.resolve("task"), null, 8)) {
            backend.valueState("a/b", "c", LongSerializer.INSTANCE).put(b("k"), NS, 1L);
            backend.snapshot(snapshot);
        }
        try (StoreStateBackend backend = type.openBackend(dir.resolve("task"), snapshot, 8)) {
            // the job changed: another (operator, name) pair with the same id must not read the old values
            assertThrows(StateException.class, () -> backend.valueState("a", "b/c", LongSerializer.INSTANCE));
        }
    }

    @Test
    void restoresHundredThousandKeysQuickly() throws Exception {
        Path snapshot = dir.resolve("chk");
        int n = 100_000;
        long snapshotBytes;
        try (StoreStateBackend backend = type.openBackend(dir.resolve("task"), null, 128)) {
            KeyedValueState<Long> s = backend.valueState("agg", "count", LongSerializer.INSTANCE);
            TimerService timers = backend.timerService("agg");
            for (int i = 0; i < n; i++) {
                byte[] key = b("user-" + i);
                s.put(key, Namespaces.window(0, 60_000), (long) i);
                timers.registerEventTimeTimer(60_000 - 1, key, Namespaces.window(0, 60_000));
            }
            backend.snapshot(snapshot);
            snapshotBytes = sizeOf(snapshot);
        }
        long start = System.nanoTime();
        try (StoreStateBackend restored = type.openBackend(dir.resolve("task2"), snapshot, 128)) {
            long opened = System.nanoTime();
            KeyedValueState<Long> s = restored.valueState("agg", "count", LongSerializer.INSTANCE);
            assertEquals(12_345L, s.get(b("user-12345"), Namespaces.window(0, 60_000)));
            StoreTimerService timers = (StoreTimerService) restored.timerService("agg");
            assertEquals(60_000 - 1, timers.nextEventTime());
            long ready = System.nanoTime();
            System.out.printf("%s: restore of %d keys + %d timers (%d KiB snapshot): open %.1f ms, first read and"
                            + " timer minimum %.1f ms%n", type, n, n, snapshotBytes >> 10, (opened - start) / 1e6,
                    (ready - opened) / 1e6);
            if (type == StateBackendType.ROCKSDB) {
                // restored by hard links, not by copying
                try (Stream<Path> files = Files.list(snapshot)) {
                    List<Path> ssts = files.filter(p -> p.toString().endsWith(".sst")).toList();
                    assertFalse(ssts.isEmpty());
                    for (Path sst : ssts) {
                        assertTrue(Files.isSameFile(sst, Path.of(restored.location()).resolve(sst.getFileName())),
                                sst.toString());
                    }
                }
            }
            assertEquals(n, drain(s.all()).size());
            int[] fired = {0};
            timers.fireEventTimeTimers(60_000, (t, k, ns) -> fired[0]++);
            assertEquals(n, fired[0]);
        }
    }

    private static long sizeOf(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
