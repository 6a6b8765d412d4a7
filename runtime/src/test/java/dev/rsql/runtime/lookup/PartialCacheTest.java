package dev.rsql.runtime.lookup;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.LookupCacheMode;
import dev.rsql.runtime.connector.LookupReader;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The LRU + TTL cache in front of a reader of an in-memory table whose rows the test changes. */
class PartialCacheTest {

    /** A table of key to value whose lookups are counted. */
    private static final class TableReader implements LookupReader {
        final Map<Long, String> rows = new HashMap<>();
        int queries;

        @Override
        public List<Object[]> lookup(Object[] key) {
            queries++;
            String v = rows.get((Long) key[0]);
            return v == null ? List.of() : List.<Object[]>of(new Object[]{key[0], v});
        }

        @Override
        public void close() {
        }
    }

    private long now;

    private PartialCache cache(TableReader reader, Map<String, String> options) {
        return new PartialCache(reader, LookupOptions.of(new Options(options), LookupCacheMode.NONE), () -> now);
    }

    private static String value(List<Object[]> rows) {
        return rows.isEmpty() ? null : (String) rows.get(0)[1];
    }

    @Test
    void hitsMissesAndExpiresAfterWrite() throws Exception {
        TableReader reader = new TableReader();
        reader.rows.put(1L, "a");
        PartialCache cache = cache(reader, Map.of("lookup.cache", "PARTIAL",
                "lookup.partial-cache.expire-after-write", "10 s", "lookup.partial-cache.max-rows", "100"));
        assertEquals("a", value(cache.lookup(new Object[]{1L})));
        reader.rows.put(1L, "b");
        now += 9_999;
        assertEquals("a", value(cache.lookup(new Object[]{1L})), "within the TTL the cached row is used");
        assertEquals(null, value(cache.lookup(new Object[]{2L})));
        reader.rows.put(2L, "x");
        assertEquals(null, value(cache.lookup(new Object[]{2L})), "a missing key is cached too");
        now += 1;
        assertEquals("b", value(cache.lookup(new Object[]{1L})), "after the TTL the row is read again");
        assertEquals(3, reader.queries);
        assertEquals(2, cache.hits());
        assertEquals(3, cache.misses());
    }

    @Test
    void expiresAfterAccessAndSkipsMissingKeysWhenAsked() throws Exception {
        TableReader reader = new TableReader();
        reader.rows.put(1L, "a");
        PartialCache cache = cache(reader, Map.of("lookup.cache", "PARTIAL",
                "lookup.partial-cache.expire-after-access", "1 s",
                "lookup.partial-cache.cache-missing-key", "false"));
        for (int i = 0; i < 5; i++) {
            now += 900; // read often enough: stays
            assertEquals("a", value(cache.lookup(new Object[]{1L})));
        }
        assertEquals(1, reader.queries);
        now += 1000;
        cache.lookup(new Object[]{1L});
        assertEquals(2, reader.queries);
        cache.lookup(new Object[]{3L});
        cache.lookup(new Object[]{3L});
        assertEquals(4, reader.queries, "a key without rows is not cached");
    }

    /** Random keys against a model of an LRU of max-rows keys: the reader is queried exactly on the model's misses. */
    @Test
    void evictsTheLeastRecentlyUsedKeys() throws Exception {
        TableReader reader = new TableReader();
        for (long k = 0; k < 50; k++) {
            reader.rows.put(k, "v" + k);
        }
        PartialCache cache = cache(reader, Map.of("lookup.partial-cache.max-rows", "10"));
        List<Long> lru = new ArrayList<>();
        int expectedQueries = 0;
        Random r = new Random(1203);
        for (int i = 0; i < 5000; i++) {
            long k = r.nextInt(r.nextBoolean() ? 12 : 50);
            if (!lru.remove(k)) {
                expectedQueries++;
                if (lru.size() == 10) {
                    lru.remove(0);
                }
            }
            lru.add(k);
            assertEquals("v" + k, value(cache.lookup(new Object[]{k})));
        }
        assertEquals(expectedQueries, reader.queries);
        assertEquals(10, cache.size());
    }
}
