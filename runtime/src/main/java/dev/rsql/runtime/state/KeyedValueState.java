package dev.rsql.runtime.state;

import java.util.ArrayList;
import java.util.List;

/**
 * Values of one kind (one state of one operator) stored by key and namespace. The key is the serialized grouping key;
 * the namespace tells apart several values of one key, e.g. the window {@code [start, end)} as 16 big-endian bytes,
 * or an empty array for non-window state. Called only from the owning task's thread.
 */
public interface KeyedValueState<V> {

    /** The value, or null. */
    V get(byte[] key, byte[] namespace);

    void put(byte[] key, byte[] namespace, V value);

    void remove(byte[] key, byte[] namespace);

    /**
     * Writes several values, each (key, namespace) at most once, as {@link #put} one after another would (a null value
     * removes). A backend may write them in one batch and in its stored order, which for a bulk write-back costs far
     * less than single puts.
     */
    default void write(List<StateEntry<V>> entries) {
        for (StateEntry<V> e : entries) {
            if (e.value() == null) {
                remove(e.key(), e.namespace());
            } else {
                put(e.key(), e.namespace(), e.value());
            }
        }
    }

    /** Removes every value of one key, whatever its namespace. */
    default void removeAll(byte[] key) {
        List<byte[]> namespaces = new ArrayList<>();
        try (CloseableIterator<StateEntry<V>> it = entries(key)) {
            while (it.hasNext()) {
                namespaces.add(it.next().namespace());
            }
        }
        for (byte[] ns : namespaces) {
            remove(key, ns);
        }
    }

    /** The values of one key, ordered by namespace bytes (for session windows: by window start). */
    CloseableIterator<StateEntry<V>> entries(byte[] key);

    /** Every value of this state, ordered by key group, key and namespace. */
    CloseableIterator<StateEntry<V>> all();

    /** Every key and namespace of this state, as {@link #all}, with values or without (null) as is cheaper. */
    default CloseableIterator<StateEntry<V>> keys() {
        return all();
    }
}
