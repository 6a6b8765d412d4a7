package dev.rsql.runtime.state.store;

import dev.rsql.runtime.exec.StateBackendType;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.LongSerializer;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.StringSerializer;
import dev.rsql.runtime.state.TimerService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ParameterizedClass
@EnumSource(StateBackendType.class)
class StoreChangeTrackingTest {

    static final byte[] NS = Namespaces.EMPTY;
    static final HexFormat HEX = HexFormat.of();

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

    /** Drained changes per column family: hex key -> value as text, "<deleted>" for a tombstone. */
    static Map<StateColumnFamily, Map<String, String>> drain(StoreStateBackend backend) throws Exception {
        Map<StateColumnFamily, Map<String, String>> out = new EnumMap<>(StateColumnFamily.class);
        for (StateColumnFamily cf : StateColumnFamily.values()) {
            out.put(cf, new TreeMap<>());
        }
        backend.drainChanges((cf, key, value) -> {
            String previous = out.get(cf).put(HEX.formatHex(key),
                    value == null ? "<deleted>" : new String(value, StandardCharsets.UTF_8));
            assertEquals(null, previous, "a key drained twice");
        });
        return out;
    }

    String valueKey(String stateName, byte[] key) {
        int id = StoreStateBackend.idOf("op/" + stateName);
        return HEX.formatHex(new KeyBuffer().value(id, backend.keyGroupOf(key), key, NS).copy());
    }

    static String timerKey(long time, byte[] key) {
        int id = StoreStateBackend.idOf("op");
        return HEX.formatHex(new KeyBuffer().timer(id, StoreTimerService.EVENT_TIME, time, key, NS).copy());
    }

    @Test
    void trackingOffRecordsNothing() throws Exception {
        KeyedValueState<String> s = backend.valueState("op", "s", StringSerializer.INSTANCE);
        s.put(b("a"), NS, "1");
        backend.timerService("op").registerEventTimeTimer(5, b("a"), NS);
        assertFalse(backend.isTrackingChanges());
        assertEquals(0, backend.changedKeyCount());
        assertThrows(IllegalStateException.class, () -> backend.drainChanges((cf, k, v) -> { }));

        backend.enableChangeTracking();
        Map<StateColumnFamily, Map<String, String>> changes = drain(backend);
        changes.values().forEach(m -> assertTrue(m.isEmpty(), "changes before tracking began: " + m));
    }

    @Test
    void drainGivesExactlyTheChangedKeysWithTheirCurrentValues() throws Exception {
        backend.enableChangeTracking();
        KeyedValueState<String> s = backend.valueState("op", "s", StringSerializer.INSTANCE);
        TimerService timers = backend.timerService("op");
        s.put(b("a"), NS, "1");
        s.put(b("a"), NS, "2");
        s.put(b("b"), NS, "x");
        s.remove(b("b"), NS);
        s.remove(b("never-written"), NS);
        timers.registerEventTimeTimer(10, b("a"), NS);
        timers.registerEventTimeTimer(20, b("b"), NS);
        timers.deleteEventTimeTimer(20, b("b"), NS);
        assertEquals(7, backend.changedKeyCount()); // 3 values, 2 timers, 2 registrations

        Map<StateColumnFamily, Map<String, String>> changes = drain(backend);
        assertEquals(Map.of(valueKey("s", b("a")), "2", valueKey("s", b("b")), "<deleted>",
                valueKey("s", b("never-written")), "<deleted>"), changes.get(StateColumnFamily.VALUES));
        assertEquals(Map.of(timerKey(10, b("a")), "", timerKey(20, b("b")), "<deleted>"),
                changes.get(StateColumnFamily.TIMERS));
        // the names behind the state id and the operator id of the timers
        assertEquals(Set.of("2:op1:s", "2:op"), Set.copyOf(changes.get(StateColumnFamily.METADATA).values()));

        assertEquals(0, backend.changedKeyCount());
        drain(backend).values().forEach(m -> assertTrue(m.isEmpty(), "drained again: " + m));

        // firing deletes the timer; the put of a new state registers its name
        List<Long> fired = new ArrayList<>();
        timers.fireEventTimeTimers(10, (time, key, ns) -> fired.add(time));
        assertEquals(List.of(10L), fired);
        backend.valueState("op", "count", LongSerializer.INSTANCE).put(b("a"), NS, 1L);
        changes = drain(backend);
        assertEquals(Map.of(timerKey(10, b("a")), "<deleted>"), changes.get(StateColumnFamily.TIMERS));
        assertEquals(Set.of(valueKey("count", b("a"))), changes.get(StateColumnFamily.VALUES).keySet());
        assertEquals(List.of("2:op5:count"), List.copyOf(changes.get(StateColumnFamily.METADATA).values()));
    }

    @Test
    void aBatchWriteReadsBackAndIsTrackedAsSinglePutsAndRemoves() throws Exception {
        KeyedValueState<String> s = backend.valueState("op", "s", StringSerializer.INSTANCE);
        s.put(b("kept"), NS, "0");
        s.put(b("overwritten"), NS, "0");
        s.put(b("removed"), NS, "0");
        backend.enableChangeTracking();
        drain(backend);
        // unsorted, with a new key in another namespace of a stored one, and a removal of a key never written
        s.write(List.of(new StateEntry<>(b("zz-new"), NS, "1"), new StateEntry<>(b("overwritten"), NS, "2"),
                new StateEntry<>(b("removed"), NS, null), new StateEntry<>(b("kept"), b("ns"), "3"),
                new StateEntry<>(b("never-written"), NS, null), new StateEntry<>(b("a-new"), NS, "4")));

        assertEquals("0", s.get(b("kept"), NS));
        assertEquals("3", s.get(b("kept"), b("ns")));
        assertEquals("2", s.get(b("overwritten"), NS));
        assertEquals(null, s.get(b("removed"), NS));
        assertEquals("1", s.get(b("zz-new"), NS));
        assertEquals("4", s.get(b("a-new"), NS));
        List<String> all = new ArrayList<>();
        try (CloseableIterator<StateEntry<String>> it = s.all()) {
            it.forEachRemaining(e -> all.add(new String(e.key(), StandardCharsets.UTF_8) + "=" + e.value()));
        }
        assertEquals(Set.of("kept=0", "kept=3", "overwritten=2", "zz-new=1", "a-new=4"), Set.copyOf(all));
        assertEquals(5, all.size());

        Map<String, String> tracked = drain(backend).get(StateColumnFamily.VALUES);
        String keptNs = HEX.formatHex(new KeyBuffer().value(StoreStateBackend.idOf("op/s"),
                backend.keyGroupOf(b("kept")), b("kept"), b("ns")).copy());
        assertEquals(Map.of(valueKey("s", b("zz-new")), "1", valueKey("s", b("overwritten")), "2",
                valueKey("s", b("removed")), "<deleted>", keptNs, "3",
                valueKey("s", b("never-written")), "<deleted>", valueKey("s", b("a-new")), "4"), tracked);
    }

    @Test
    void manyWritesOfFewKeysRecordEachKeyOnce() throws Exception {
        backend.enableChangeTracking();
        KeyedValueState<Long> s = backend.valueState("op", "count", LongSerializer.INSTANCE);
        int keys = 20_000;
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < keys; i++) {
                s.put(b("key-" + i), NS, (long) round);
            }
        }
        assertEquals(keys + 1, backend.changedKeyCount());
        Map<StateColumnFamily, Map<String, String>> changes = drain(backend);
        assertEquals(keys, changes.get(StateColumnFamily.VALUES).size());
        assertTrue(changes.get(StateColumnFamily.VALUES).containsKey(valueKey("count", b("key-7"))));
        assertFalse(changes.get(StateColumnFamily.VALUES).containsValue("<deleted>"));
    }

    @Test
    void valuesBeyondWhatTheTrackerKeepsAreReadBackAtTheDrain() throws Exception {
        backend.enableChangeTracking();
        KeyedValueState<String> s = backend.valueState("op", "big", StringSerializer.INSTANCE);
        drain(backend);
        // 6 values of 1 MB: more than the 4 MB kept in the heap, so the last ones are read from RocksDB
        Map<String, String> expected = new TreeMap<>();
        for (int i = 0; i < 6; i++) {
            String value = String.valueOf((char) ('a' + i)).repeat(1 << 20);
            s.put(b("k" + i), NS, "stale");
            s.put(b("k" + i), NS, value);
            expected.put(valueKey("big", b("k" + i)), value);
        }
        s.remove(b("k0"), NS);
        expected.put(valueKey("big", b("k0")), "<deleted>");
        s.put(b("k5"), NS, "small again");
        expected.put(valueKey("big", b("k5")), "small again");
        assertEquals(expected, drain(backend).get(StateColumnFamily.VALUES));

        // after the drain the budget is whole again: a later change is kept and drained as written
        s.put(b("k1"), NS, "later");
        assertEquals(Map.of(valueKey("big", b("k1")), "later"), drain(backend).get(StateColumnFamily.VALUES));
    }

    @Test
    void forEachEntryListsEveryColumnFamily() throws Exception {
        KeyedValueState<String> s = backend.valueState("op", "s", StringSerializer.INSTANCE);
        s.put(b("a"), NS, "1");
        s.put(b("b"), NS, "2");
        backend.timerService("op").registerProcessingTimeTimer(7, b("a"), NS);
        Map<StateColumnFamily, Integer> counts = new EnumMap<>(StateColumnFamily.class);
        backend.forEachEntry((cf, key, value) -> counts.merge(cf, 1, Integer::sum));
        // metadata: format version, key groups and the two registered names
        assertEquals(Map.of(StateColumnFamily.METADATA, 4, StateColumnFamily.VALUES, 2, StateColumnFamily.TIMERS, 1),
                counts);
    }

    @Test
    void entriesAreRestoredOnlyIntoAnUnusedBackend() throws Exception {
        KeyedValueState<String> s = backend.valueState("op", "s", StringSerializer.INSTANCE);
        s.put(b("a"), NS, "1");
        List<Object[]> entries = new ArrayList<>();
        backend.forEachEntry((cf, key, value) -> entries.add(new Object[] {cf, key, value}));

        try (StoreStateBackend fresh = type.openBackend(dir.resolve("other"), null, 128)) {
            for (Object[] e : entries) {
                fresh.restoreEntry((StateColumnFamily) e[0], (byte[]) e[1], (byte[]) e[2]);
            }
            fresh.checkRestoredMetadata("test");
            assertEquals("1", fresh.valueState("op", "s", StringSerializer.INSTANCE).get(b("a"), NS));
            assertThrows(IllegalStateException.class,
                    () -> fresh.restoreEntry(StateColumnFamily.VALUES, b("k"), b("v")));
        }
        try (StoreStateBackend otherGroups = type.openBackend(dir.resolve("groups"), null, 64)) {
            for (Object[] e : entries) {
                otherGroups.restoreEntry((StateColumnFamily) e[0], (byte[]) e[1], (byte[]) e[2]);
            }
            assertThrows(java.io.IOException.class, () -> otherGroups.checkRestoredMetadata("test"));
        }
    }
}
