package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Namespaces;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values of one keyed state (namespace {@link Namespaces#EMPTY}) for the most recently used keys, in the heap:
 * reads and writes of an active key cost no state access. A changed value is written back when its key is evicted
 * (least recently used first, beyond {@code capacity} keys) and at {@link #flush}, which operators call before every
 * checkpoint, so a snapshot holds every change. A value set to null is removed from state.
 */
final class KeyedStateCache<V> {

    /** One key's value as the operator sees it; mark it {@link #changed} after changing it. */
    static final class Entry<V> {
        final byte[] key;
        V value;
        private boolean dirty;

        private Entry(byte[] key, V value) {
            this.key = key;
            this.value = value;
        }

        void changed() {
            dirty = true;
        }
    }

    /** Keys cached per operator and task, unless the job sets {@code window.state-cache.keys}. */
    static final int DEFAULT_CAPACITY = 10_000;

    private final KeyedValueState<V> state;
    private final Map<ByteBuffer, Entry<V>> entries;

    /** The capacity the job's settings give. */
    static int capacity(OperatorContext context) {
        return Math.max(1, context.parameters().getInt(DEFAULT_CAPACITY, "window.state-cache.keys"));
    }

    KeyedStateCache(KeyedValueState<V> state, int capacity) {
        this.state = state;
        this.entries = new LinkedHashMap<>(Math.min(capacity, 1024), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Entry<V>> eldest) {
                if (size() <= capacity) {
                    return false;
                }
                writeBack(eldest.getValue());
                return true;
            }
        };
    }

    /** The entry of a key, read from state if not cached (its value null when the key has none). */
    Entry<V> get(byte[] key) {
        ByteBuffer k = ByteBuffer.wrap(key);
        Entry<V> e = entries.get(k);
        if (e == null) {
            e = new Entry<>(key, state.get(key, Namespaces.EMPTY));
            entries.put(k, e);
        }
        return e;
    }

    private void writeBack(Entry<V> e) {
        if (!e.dirty) {
            return;
        }
        if (e.value == null) {
            state.remove(e.key, Namespaces.EMPTY);
        } else {
            state.put(e.key, Namespaces.EMPTY, e.value);
        }
        e.dirty = false;
    }

    /** Writes every changed value to state. */
    void flush() {
        for (Entry<V> e : entries.values()) {
            writeBack(e);
        }
    }
}
