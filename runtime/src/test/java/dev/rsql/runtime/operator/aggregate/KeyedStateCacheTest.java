package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.exec.StateBackendType;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.LongSerializer;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.store.StoreStateBackend;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A cache reads what was last written through it, whatever it evicted in batches since, and after a flush the state
 * holds exactly that: random reads, writes and removals, direct and through {@link KeyedStateCache#asState()} (whose
 * put after a get reuses the entry read), against a map.
 */
class KeyedStateCacheTest {

    @TempDir
    Path dir;

    private static byte[] bytes(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static String pair(byte[] key, byte[] namespace) {
        return ByteBuffer.wrap(key).getLong() + "/" + ByteBuffer.wrap(namespace).getLong();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 16, 200})
    void agreesWithAMapThroughEvictionsFlushesAndAReopen(int capacity) throws Exception {
        try (StoreStateBackend backend = StateBackendType.ROCKSDB.openBackend(dir.resolve("s" + capacity), null, 128)) {
            KeyedValueState<Long> state = backend.valueState("op", "v", LongSerializer.INSTANCE);
            KeyedStateCache<Long> cache = new KeyedStateCache<>(state, capacity);
            KeyedValueState<Long> view = cache.asState();
            Map<String, Long> model = new HashMap<>();
            Random r = new Random(capacity);
            for (int step = 0; step < 20_000; step++) {
                byte[] key = bytes(r.nextInt(300));
                byte[] ns = bytes(r.nextInt(2));
                String at = pair(key, ns);
                Long next = r.nextInt(4) == 0 ? null : (long) step;
                switch (r.nextInt(5)) {
                    case 0 -> {  // an operator's read-modify-write of an entry
                        KeyedStateCache.Entry<Long> e = cache.get(key, ns);
                        assertEquals(model.get(at), e.value, at);
                        e.value = next;
                        e.changed();
                        model.put(at, next);
                    }
                    case 1 -> {  // a state view's: get, then put with the same arrays
                        assertEquals(model.get(at), view.get(key, ns), at);
                        view.put(key, ns, next);
                        model.put(at, next);
                    }
                    case 2 -> {  // another pair read or written (maybe evicting the first) before the put
                        assertEquals(model.get(at), view.get(key, ns), at);
                        byte[] otherKey = bytes(300 + r.nextInt(300));
                        if (r.nextBoolean()) {
                            assertEquals(model.get(pair(otherKey, ns)), view.get(otherKey, ns));
                        } else {
                            view.put(otherKey, ns, (long) -step);
                            model.put(pair(otherKey, ns), (long) -step);
                        }
                        view.put(key, ns, next);
                        model.put(at, next);
                    }
                    case 3 -> {
                        view.remove(key, ns);
                        model.put(at, null);
                    }
                    default -> assertEquals(model.get(at), view.get(key, ns), at);
                }
                if (r.nextInt(1000) == 0) {
                    cache.flush();
                    assertStateHolds(model, state);
                }
            }
            cache.flush();
            assertStateHolds(model, state);

            KeyedStateCache<Long> reopened = new KeyedStateCache<>(state, capacity);
            for (Map.Entry<String, Long> m : model.entrySet()) {
                String[] parts = m.getKey().split("/");
                byte[] key = bytes(Long.parseLong(parts[0]));
                byte[] ns = bytes(Long.parseLong(parts[1]));
                assertEquals(m.getValue(), reopened.get(key, ns).value, m.getKey());
            }
        }
    }

    private static void assertStateHolds(Map<String, Long> model, KeyedValueState<Long> state) {
        Map<String, Long> stored = new HashMap<>();
        try (CloseableIterator<StateEntry<Long>> it = state.all()) {
            it.forEachRemaining(e -> stored.put(pair(e.key(), e.namespace()), e.value()));
        }
        Map<String, Long> expected = new HashMap<>(model);
        expected.values().removeIf(v -> v == null);
        assertEquals(expected, stored);
    }
}
