package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Murmur3;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.StateEntry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The values of one keyed state for the recently used (key, namespace) pairs, in the heap: reads and writes of
 * an active key cost no state access. A changed value is written back when its entry is evicted (those not read
 * lately first, beyond {@code capacity} entries: {@link CachedEntries}) and at {@link #flush}, which operators call
 * before every checkpoint, so a snapshot holds every change. A value set to null is removed from state. A {@link
 * StoredKeysFilter} of the pairs the state may hold (those it held at the start and those written since) answers
 * most misses of new pairs without reading the state. With capacity 0 nothing is kept and there is no filter: a
 * value is read at every {@link #get} and written at once by {@link Entry#changed} (so set it first).
 */
final class KeyedStateCache<V> {

    /** One key's value as the operator sees it; mark it {@link #changed} after changing it. */
    static final class Entry<V> {
        final byte[] key;
        final byte[] namespace;
        V value;
        private final KeyedStateCache<V> cache;
        private final int hash;
        private boolean dirty;
        /** Read since the eviction clock last passed it ({@link CachedEntries}). */
        boolean referenced;

        private Entry(KeyedStateCache<V> cache, byte[] key, byte[] namespace, int hash) {
            this.cache = cache;
            this.key = key;
            this.namespace = namespace;
            this.hash = hash;
        }

        /** Whether this is the entry of {@code key} and {@code namespace}, whose hash is {@code hash}. */
        boolean is(int hash, byte[] key, byte[] namespace) {
            return this.hash == hash && Arrays.equals(this.key, key) && Arrays.equals(this.namespace, namespace);
        }

        void changed() {
            if (cache.capacity == 0) {
                cache.write(this);
            } else if (!dirty) {
                dirty = true;
                cache.changed(this);
            }
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** Entries cached per state of an operator and task, unless the job's setting says otherwise. */
    static final int DEFAULT_CAPACITY = 10_000;
    /** Changed values written to state in one batch at most. */
    private static final int MAX_BATCH = 1024;

    private final KeyedValueState<V> state;
    private final int capacity;
    private final CachedEntries<V> entries;
    /** How many entries go at once when the cache is full (their changes in one batch). */
    private final int evictions;
    /** How many times entries were evicted (an entry read before then may be gone). */
    private long evictionRounds;
    /** Entries changed since they were last written (some may have been written on eviction since). */
    private final List<Entry<V>> changed = new ArrayList<>();
    /** Null when there is none (capacity 0) or it outgrew its bound. */
    private StoredKeysFilter stored;

    /** The capacity the job's {@code setting} gives, at least {@code min}. */
    static int capacity(OperatorContext context, String setting, int min) {
        return Math.max(min, context.parameters().getInt(DEFAULT_CAPACITY, setting));
    }

    KeyedStateCache(KeyedValueState<V> state, int capacity) {
        this(state, capacity, StoredKeysFilter.defaultMaxBytes());
    }

    /** A cache whose filter takes at most {@code filterBytes}. */
    KeyedStateCache(KeyedValueState<V> state, int capacity, long filterBytes) {
        this.state = state;
        this.capacity = capacity;
        this.stored = capacity == 0 ? null : filterOf(state, filterBytes);
        this.entries = new CachedEntries<>(Math.min(capacity, 1024));
        this.evictions = Math.max(1, Math.min(capacity / 8, MAX_BATCH));
    }

    /** A filter of the pairs {@code state} holds now, or null if they are too many for {@code maxBytes}. */
    private static StoredKeysFilter filterOf(KeyedValueState<?> state, long maxBytes) {
        StoredKeysFilter filter = new StoredKeysFilter(maxBytes);
        try (CloseableIterator<? extends StateEntry<?>> it = state.keys()) {
            while (it.hasNext()) {
                StateEntry<?> e = it.next();
                if (!filter.add(hash(e.key(), e.namespace()))) {
                    return null;
                }
            }
        }
        return filter;
    }

    // Not Arrays.hashCode: serialized numbers collide there (BIGINTs 1,000 to 101,000 share 9,122 hashes), and the
    // map's buckets became trees of colliding entries.
    private static int hash(byte[] key, byte[] namespace) {
        return Murmur3.hash32(namespace, Murmur3.hash32(key, 0));
    }

    /** The entry of a key (namespace {@link Namespaces#EMPTY}), read from state if not cached (value null if none). */
    Entry<V> get(byte[] key) {
        return get(key, Namespaces.EMPTY);
    }

    /** The entry of a key and namespace, read from state if not cached. */
    Entry<V> get(byte[] key, byte[] namespace) {
        return entry(key, namespace, true);
    }

    /** The entry of a key and namespace about to be overwritten: not read from state if not cached. */
    private Entry<V> slot(byte[] key, byte[] namespace) {
        return entry(key, namespace, false);
    }

    /**
     * The cached entry, else one added for it (its value read from state if {@code read}). A cached entry costs a
     * probe and no allocation (most reads find theirs).
     */
    private Entry<V> entry(byte[] key, byte[] namespace, boolean read) {
        int hash = hash(key, namespace);
        if (capacity == 0) {
            Entry<V> uncached = new Entry<>(this, key, namespace, hash);
            if (read) {
                uncached.value = state.get(key, namespace);
            }
            return uncached;
        }
        Entry<V> cached = entries.get(hash, key, namespace);
        if (cached != null) {
            return cached;
        }
        Entry<V> added = new Entry<>(this, key, namespace, hash);
        entries.add(added);
        if (read && (stored == null || stored.mightContain(hash))) {
            // added before it is read: a read that fails fails the task, and this cache goes with it
            added.value = state.get(key, namespace);
        }
        evictIfFull(added);
        return added;
    }

    /**
     * Past capacity, drops entries not read lately (by the clock of {@link CachedEntries}), never {@code newest},
     * writing their changes in one batch.
     */
    private void evictIfFull(Entry<V> newest) {
        if (entries.size() <= capacity) {
            return;
        }
        List<Entry<V>> evicted = new ArrayList<>(evictions);
        evictionRounds++;
        entries.evict(evictions, newest, evicted);
        evicted.removeIf(e -> !e.dirty);
        write(evicted);
    }

    private void changed(Entry<V> e) {
        changed.add(e);
        if (changed.size() > 2 * Math.max(capacity, 16)) {
            changed.removeIf(c -> !c.dirty);  // written on eviction: at most capacity stay
        }
    }

    private void write(Entry<V> e) {
        write(List.of(e));
    }

    /** Writes changed entries to state in one batch (eviction and flush cut them up into at most MAX_BATCH). */
    private void write(List<Entry<V>> changes) {
        List<StateEntry<V>> batch = new ArrayList<>(changes.size());
        for (Entry<V> e : changes) {
            e.dirty = false;
            if (e.value == null) {
                if (stored != null && !stored.mightContain(e.hash)) {
                    continue;   // never stored: nothing to remove (a window opened and fired)
                }
            } else if (stored != null && !stored.add(e.hash)) {
                stored = null;
            }
            batch.add(new StateEntry<>(e.key, e.namespace, e.value));
        }
        if (!batch.isEmpty()) {
            state.write(batch);
        }
    }

    /** Writes every changed value to state. */
    void flush() {
        List<Entry<V>> batch = new ArrayList<>(Math.min(changed.size(), MAX_BATCH));
        for (Entry<V> e : changed) {
            if (e.dirty) {
                e.dirty = false;   // listed twice if changed again after an eviction wrote it
                batch.add(e);
                if (batch.size() == MAX_BATCH) {
                    write(batch);
                    batch.clear();
                }
            }
        }
        write(batch);
        changed.clear();
    }

    /**
     * This cache as a value state, for code that reads and writes state by (key, namespace) such as a state view.
     * Iterating first writes every change back, so that the state's iterators see it.
     */
    KeyedValueState<V> asState() {
        return new KeyedValueState<>() {
            // The last entry read, for the put that usually follows (a state view's read-modify-write) with the
            // same arrays: it is still cached if nothing was evicted since.
            private byte[] lastKey;
            private byte[] lastNamespace;
            private Entry<V> last;
            private long lastEvictions;

            @Override
            public V get(byte[] key, byte[] namespace) {
                Entry<V> e = KeyedStateCache.this.get(key, namespace);
                lastKey = key;
                lastNamespace = namespace;
                last = e;
                lastEvictions = evictionRounds;
                return e.value;
            }

            @Override
            public void put(byte[] key, byte[] namespace, V value) {
                boolean same = key == lastKey && namespace == lastNamespace && evictionRounds == lastEvictions;
                Entry<V> e = same && capacity > 0 ? last : slot(key, namespace);
                e.value = value;
                e.changed();
            }

            @Override
            public void remove(byte[] key, byte[] namespace) {
                put(key, namespace, null);
            }

            @Override
            public CloseableIterator<StateEntry<V>> entries(byte[] key) {
                flush();
                return state.entries(key);
            }

            @Override
            public CloseableIterator<StateEntry<V>> all() {
                flush();
                return state.all();
            }
        };
    }
}
