package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.exec.StateBackendType;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.LongSerializer;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.store.StoreStateBackend;
import dev.rsql.runtime.testing.CountingStateBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The filter of stored pairs never rules out one it was given, rules out most others, and keeps to its bound. */
class StoredKeysFilterTest {

    @TempDir
    Path dir;

    @Test
    void everyAddedPairPassesAndFewOthersDo() {
        StoredKeysFilter filter = new StoredKeysFilter(32L << 20);
        Random r = new Random(5);
        int[] added = new int[1_000_000];
        for (int i = 0; i < added.length; i++) {
            added[i] = r.nextInt();
            assertTrue(filter.add(added[i]));
        }
        for (int h : added) {
            assertTrue(filter.mightContain(h));
        }
        int passed = 0;
        for (int i = 0; i < 100_000; i++) {
            if (filter.mightContain(r.nextInt())) {
                passed++;
            }
        }
        assertTrue(passed < 5_000, passed + " of 100,000 pairs never added passed");
    }

    @Test
    void refusesToGrowPastItsBound() {
        StoredKeysFilter filter = new StoredKeysFilter(64 << 10);
        int i = 0;
        while (filter.add(i)) {
            i++;
        }
        assertTrue(i >= 16_384 && i < 1_000_000, "pairs taken in 64 KiB: " + i);
    }

    private static byte[] key(long k) {
        return ByteBuffer.allocate(8).putLong(k).array();
    }

    @Test
    void aCacheReadsNoStateForNewKeysAndFindsTheStoredOnesAfterAReopen() throws Exception {
        try (StoreStateBackend rocks = StateBackendType.ROCKSDB.openBackend(dir.resolve("s"), null, 128)) {
            CountingStateBackend backend = new CountingStateBackend(rocks);
            KeyedValueState<Long> state = backend.valueState("op", "v", LongSerializer.INSTANCE);
            KeyedStateCache<Long> cache = new KeyedStateCache<>(state, 100);
            backend.reset();
            for (long k = 0; k < 1000; k++) {
                KeyedStateCache.Entry<Long> e = cache.get(key(k));
                assertNull(e.value);
                e.value = k;
                e.changed();
            }
            cache.flush();
            assertEquals(1000, backend.writes(), "every value written once (evicted or flushed)");
            assertTrue(backend.accesses() - backend.writes() < 50, "state reads for 1,000 new keys: "
                    + (backend.accesses() - backend.writes()));

            // A new cache over the same state (as after a restore) learns the stored pairs from the state.
            KeyedStateCache<Long> reopened = new KeyedStateCache<>(state, 100);
            for (long k = 0; k < 1000; k++) {
                assertEquals(k, reopened.get(key(k)).value);
            }
            // And one whose filter would outgrow its bound has none, yet reads right.
            KeyedStateCache<Long> unfiltered = new KeyedStateCache<>(state, 100, 0);
            for (long k = 0; k < 1000; k++) {
                assertEquals(k, unfiltered.get(key(k), Namespaces.EMPTY).value);
            }
            assertFalse(unfiltered.get(key(5000)).value != null);
        }
    }

    @Test
    void pairsWrittenAndRemovedBetweenTwoFlushesCostNoStateAccess() throws Exception {
        try (StoreStateBackend rocks = StateBackendType.ROCKSDB.openBackend(dir.resolve("s"), null, 128)) {
            CountingStateBackend backend = new CountingStateBackend(rocks);
            KeyedValueState<Long> state = backend.valueState("op", "v", LongSerializer.INSTANCE);
            KeyedStateCache<Long> cache = new KeyedStateCache<>(state, 100);
            for (long k = 0; k < 10; k++) {     // stored: their removal must reach the state
                KeyedStateCache.Entry<Long> e = cache.get(key(k));
                e.value = k;
                e.changed();
            }
            cache.flush();
            backend.reset();
            for (long k = 0; k < 1000; k++) {   // as windows opened and fired between two checkpoints
                KeyedStateCache.Entry<Long> e = cache.get(key(1000 + k));
                e.value = k;
                e.changed();
                e.value = null;
                e.changed();
            }
            for (long k = 0; k < 10; k++) {
                KeyedStateCache.Entry<Long> e = cache.get(key(k));
                assertEquals(k, e.value);
                e.value = null;
                e.changed();
            }
            cache.flush();
            assertTrue(backend.accesses() < 60, "state accesses: " + backend.accesses());
            for (long k = 0; k < 10; k++) {
                assertNull(state.get(key(k), Namespaces.EMPTY));
            }
        }
    }
}
