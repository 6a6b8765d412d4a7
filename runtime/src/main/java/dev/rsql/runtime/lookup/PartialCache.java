package dev.rsql.runtime.lookup;

import dev.rsql.runtime.connector.LookupReader;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * An LRU cache of lookup results in front of a task's {@link LookupReader}: at most {@code maxRows} keys, each
 * dropped once older than {@code expireAfterWrite} or unread for {@code expireAfterAccess} (0: never), keys without
 * rows cached too unless {@code cacheMissingKey} is false. One per task.
 */
public final class PartialCache implements LookupTable {

    private record Entry(List<Object[]> rows, long written, long accessed) {
    }

    private final LookupReader reader;
    private final LookupOptions options;
    private final LongSupplier clock;
    private final Map<List<Object>, Entry> entries;
    private long hits;
    private long misses;

    public PartialCache(LookupReader reader, LookupOptions options, LongSupplier clock) {
        this.reader = reader;
        this.options = options;
        this.clock = clock;
        long max = options.maxRows();
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<List<Object>, Entry> eldest) {
                return size() > max;
            }
        };
    }

    @Override
    public List<Object[]> lookup(Object[] key) throws Exception {
        List<Object> k = Arrays.asList(key);
        long now = clock.getAsLong();
        Entry e = entries.get(k);
        if (e != null && !expired(e, now)) {
            hits++;
            if (options.expireAfterAccessMillis() > 0) {
                entries.put(k, new Entry(e.rows(), e.written(), now));
            }
            return e.rows();
        }
        misses++;
        List<Object[]> rows = reader.lookup(key);
        if (rows.isEmpty() && !options.cacheMissingKey()) {
            entries.remove(k);
        } else {
            entries.put(Arrays.asList(key.clone()), new Entry(List.copyOf(rows), now, now));
        }
        return rows;
    }

    private boolean expired(Entry e, long now) {
        return options.expireAfterWriteMillis() > 0 && now - e.written() >= options.expireAfterWriteMillis()
                || options.expireAfterAccessMillis() > 0 && now - e.accessed() >= options.expireAfterAccessMillis();
    }

    public long hits() {
        return hits;
    }

    public long misses() {
        return misses;
    }

    public int size() {
        return entries.size();
    }

    @Override
    public void close() {
        reader.close();
    }
}
