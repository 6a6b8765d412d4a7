package dev.rsql.runtime.state.rocksdb;

import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.LongSerializer;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.store.StoreStateBackend;
import dev.rsql.runtime.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What only the RocksDB store does: its working copy on disk and its native memory. */
class RocksDbStoreTest {

    static final byte[] NS = Namespaces.EMPTY;

    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static StoreStateBackend open(Path task, Path from, RocksDbOptions options) throws Exception {
        return StoreStateBackend.open(RocksDbStore.open(task, from, options), 8, from == null ? null : from.toString());
    }

    @Test
    void sizeAndMemoryAreReported() throws Exception {
        try (StoreStateBackend backend = open(dir.resolve("task"), null, RocksDbOptions.defaults())) {
            KeyedValueState<Long> s = backend.valueState("op", "v", LongSerializer.INSTANCE);
            for (int i = 0; i < 1000; i++) {
                s.put(b("k" + i), NS, (long) i);
            }
            assertTrue(backend.sizeOnDisk() > 0);
            long memory = backend.memoryUsage();
            assertTrue(memory > 0 && memory < RocksDbOptions.DEFAULT_BLOCK_CACHE_BYTES * 2, "memory " + memory);
        }
    }

    /**
     * The memtables of values and timers insert with a hint per state or timer id (RocksDB's option parser takes a
     * prefix extractor it does not know silently, so the options file it writes is checked), and entries written in
     * batches that interleave states all read back.
     */
    @Test
    void memtablesInsertWithAHintPerId() throws Exception {
        Path task = dir.resolve("task");
        try (StoreStateBackend backend = open(task, null, RocksDbOptions.defaults())) {
            List<KeyedValueState<Long>> states = List.of(backend.valueState("op", "a", LongSerializer.INSTANCE),
                    backend.valueState("op", "b", LongSerializer.INSTANCE));
            Random random = new Random(7);
            int[] keys = random.ints(20_000, 0, 1_000_000).distinct().toArray();
            for (int from = 0; from < keys.length; from += 500) {
                for (KeyedValueState<Long> s : states) {
                    List<StateEntry<Long>> batch = new ArrayList<>();
                    for (int i = from; i < Math.min(from + 500, keys.length); i++) {
                        batch.add(new StateEntry<>(b("k" + keys[i]), NS, (long) keys[i]));
                    }
                    s.write(batch);
                }
            }
            for (KeyedValueState<Long> s : states) {
                for (int k : keys) {
                    assertEquals(k, s.get(b("k" + k), NS));
                }
                assertNull(s.get(b("k-1"), NS));
            }
        }
        Map<String, String> hints = optionPerSection(task, "memtable_insert_with_hint_prefix_extractor");
        assertEquals("rocksdb.FixedPrefix.4", hints.get("[CFOptions \"values\"]"), hints.toString());
        assertEquals("rocksdb.FixedPrefix.4", hints.get("[CFOptions \"timers\"]"), hints.toString());
        assertEquals("nullptr", hints.get("[CFOptions \"default\"]"), hints.toString());
    }

    /**
     * Compactions take CPU from the task that writes (Nexmark q16 on two cores: 3.4 s of compaction in a 7 s job, and
     * the task waiting for a core 14 % of the time): they start at 8 files in level 0, and their threads run at a
     * lower priority than the process's others.
     */
    @Test
    void compactionsStartLaterAndRunBelowTheTasksPriority() throws Exception {
        Path task = dir.resolve("task");
        try (StoreStateBackend backend = open(task, null, RocksDbOptions.defaults())) {
            KeyedValueState<Long> state = backend.valueState("op", "v", LongSerializer.INSTANCE);
            for (int file = 0; file < 9; file++) {
                for (int k = 0; k < 100; k++) {
                    state.put(b("k" + file + "-" + k), NS, (long) k);
                }
                backend.snapshot(dir.resolve("chk-" + file));   // flushes a file into level 0
            }
            assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "threads are read from /proc");
            Await.until("a compaction thread at a lower CPU priority", Duration.ofSeconds(30),
                    () -> compactionThreadNices().stream().anyMatch(nice -> nice > 0));
            assertEquals(2L, state.get(b("k3-2"), NS));
        }
        Map<String, String> trigger = optionPerSection(task, "level0_file_num_compaction_trigger");
        assertEquals("8", trigger.get("[CFOptions \"values\"]"), trigger.toString());
        assertEquals("8", trigger.get("[CFOptions \"timers\"]"), trigger.toString());
    }

    /** The nice values of the threads of RocksDB's low-priority (compaction) pool in this process. */
    private static List<Integer> compactionThreadNices() {
        List<Integer> nices = new ArrayList<>();
        try (Stream<Path> threads = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) threads::iterator) {
                try {
                    if (Files.readString(t.resolve("comm")).startsWith("rocksdb:low")) {
                        String stat = Files.readString(t.resolve("stat"));
                        // fields after the command: state is field 3, nice field 19
                        nices.add(Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]));
                    }
                } catch (IOException ended) {
                    // the thread ended between the listing and the read: threads of this JVM come and go
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return nices;
    }

    /** Per section of the OPTIONS file RocksDB last wrote in the working copy, the value of {@code option}. */
    private static Map<String, String> optionPerSection(Path task, String option) throws IOException {
        Path options;
        try (Stream<Path> files = Files.list(task.resolve("db"))) {
            options = files.filter(f -> f.getFileName().toString().startsWith("OPTIONS-")).max(Path::compareTo)
                    .orElseThrow();
        }
        Map<String, String> values = new HashMap<>();
        String section = null;
        for (String line : Files.readAllLines(options)) {
            line = line.trim();
            if (line.startsWith("[")) {
                section = line;
            } else if (line.startsWith(option + "=")) {
                values.put(section, line.substring(line.indexOf('=') + 1));
            }
        }
        return values;
    }

    @Test
    void sharedMemoryServesSeveralBackends() throws Exception {
        try (RocksDbSharedMemory memory = new RocksDbSharedMemory(32L << 20, 16L << 20)) {
            RocksDbOptions options = RocksDbOptions.defaults().withSharedMemory(memory);
            try (StoreStateBackend one = open(dir.resolve("t1"), null, options);
                 StoreStateBackend two = open(dir.resolve("t2"), null, options)) {
                one.valueState("op", "v", LongSerializer.INSTANCE).put(b("k"), NS, 1L);
                two.valueState("op", "v", LongSerializer.INSTANCE).put(b("k"), NS, 2L);
                assertEquals(1L, one.valueState("op", "v", LongSerializer.INSTANCE).get(b("k"), NS));
                assertEquals(2L, two.valueState("op", "v", LongSerializer.INSTANCE).get(b("k"), NS));
                assertTrue(memory.usage() > 0);
            }
        }
    }

    @Test
    void leftoversInTheWorkingDirAreDiscarded() throws Exception {
        Path task = dir.resolve("task");
        RocksDbOptions options = RocksDbOptions.defaults();
        try (StoreStateBackend backend = open(task, null, options)) {
            backend.valueState("op", "v", LongSerializer.INSTANCE).put(b("stale"), NS, 1L);
            backend.timerService("op").registerEventTimeTimer(1, b("stale"), NS);
            backend.snapshot(dir.resolve("stale-snapshot")); // make sure it reached SST files in the working copy
        }
        Files.writeString(task.resolve("db/garbage.tmp"), "half-written");
        try (StoreStateBackend fresh = open(task, null, options)) {
            assertNull(fresh.valueState("op", "v", LongSerializer.INSTANCE).get(b("stale"), NS));
            assertEquals(Long.MAX_VALUE, fresh.timerService("op").nextProcessingTime());
            int[] fired = {0};
            fresh.timerService("op").fireEventTimeTimers(Long.MAX_VALUE, (t, k, ns) -> fired[0]++);
            assertEquals(0, fired[0]);
            assertFalse(Files.exists(task.resolve("db/garbage.tmp")));
        }

        Path snapshot = dir.resolve("chk");
        try (StoreStateBackend backend = open(task, null, options)) {
            backend.valueState("op", "v", LongSerializer.INSTANCE).put(b("kept"), NS, 2L);
            backend.snapshot(snapshot);
            backend.valueState("op", "v", LongSerializer.INSTANCE).put(b("not-kept"), NS, 3L);
            backend.snapshot(dir.resolve("later")); // the working copy now holds not-kept in an SST
        }
        try (StoreStateBackend restored = open(task, snapshot, options)) {
            KeyedValueState<Long> s = restored.valueState("op", "v", LongSerializer.INSTANCE);
            assertEquals(2L, s.get(b("kept"), NS));
            assertNull(s.get(b("not-kept"), NS));
        }
    }
}
