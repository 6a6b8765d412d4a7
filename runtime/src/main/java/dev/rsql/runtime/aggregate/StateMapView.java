package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.TypeSerializer;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * A map field of an accumulator kept as one keyed-state entry per map entry, under the group (key and namespace) it is
 * bound to: the entry's namespace is the group's namespace followed by the map key's bytes, so that a change of one
 * element reads and writes one small entry and never the whole map (as Flink's state-backed {@code MapView}). The
 * operator binds it to a group before handing the accumulator to the functions. Map keys are equal when their
 * key-mode bytes are. {@link #put} and {@link #remove} return null instead of reading the previous value; iteration
 * reads the group's entries (in key-byte order) at the moment it starts.
 */
public final class StateMapView<K, V> extends AbstractMap<K, V> {

    private final KeyedValueState<V> state;
    private final TypeSerializer<K> keySerializer;
    private final EntrySet entrySet = new EntrySet();
    private byte[] key;
    private byte[] namespace;
    /** The element last looked up, the group (key, namespace) it was looked up in, and its entry's namespace. */
    private Object lastElement;
    private byte[] lastElementKey;
    private byte[] lastElementGroup;
    private byte[] lastNamespace;

    public StateMapView(KeyedValueState<V> state, TypeSerializer<K> keySerializer) {
        this.state = state;
        this.keySerializer = keySerializer;
    }

    /** The group the next calls are about. */
    public void bind(byte[] key, byte[] namespace) {
        this.key = key;
        this.namespace = namespace;
    }

    @SuppressWarnings("unchecked")
    private byte[] entryNamespace(Object k) {
        if (k == lastElement && key == lastElementKey && namespace == lastElementGroup) {
            return lastNamespace;  // a put after the get of the same element: the state reuses the entry it read
        }
        lastElement = k;
        lastElementKey = key;
        lastElementGroup = namespace;
        lastNamespace = namespaceOf((K) k);
        return lastNamespace;
    }

    private byte[] namespaceOf(K k) {
        byte[] element = keySerializer.serialize(k);
        if (namespace.length == 0) {
            return element;
        }
        byte[] ns = Arrays.copyOf(namespace, namespace.length + element.length);
        System.arraycopy(element, 0, ns, namespace.length, element.length);
        return ns;
    }

    @Override
    public V get(Object k) {
        return state.get(key, entryNamespace(k));
    }

    @Override
    public boolean containsKey(Object k) {
        return get(k) != null;
    }

    @Override
    public V put(K k, V v) {
        state.put(key, entryNamespace(k), v);
        return null;
    }

    /** As {@link Map#merge}, serializing the map key once. */
    @Override
    public V merge(K k, V v, BiFunction<? super V, ? super V, ? extends V> remapping) {
        byte[] ns = entryNamespace(k);
        V old = state.get(key, ns);
        V next = old == null ? v : remapping.apply(old, v);
        if (next == null) {
            state.remove(key, ns);
        } else {
            state.put(key, ns, next);
        }
        return next;
    }

    @Override
    public V remove(Object k) {
        state.remove(key, entryNamespace(k));
        return null;
    }

    @Override
    public boolean isEmpty() {
        try (CloseableIterator<StateEntry<V>> it = state.entries(key)) {
            while (it.hasNext()) {
                if (ours(it.next().namespace())) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public void clear() {
        List<byte[]> namespaces = new ArrayList<>();
        try (CloseableIterator<StateEntry<V>> it = state.entries(key)) {
            while (it.hasNext()) {
                byte[] ns = it.next().namespace();
                if (ours(ns)) {
                    namespaces.add(ns);
                }
            }
        }
        for (byte[] ns : namespaces) {
            state.remove(key, ns);
        }
    }

    private boolean ours(byte[] entryNamespace) {
        return entryNamespace.length >= namespace.length
                && Arrays.equals(entryNamespace, 0, namespace.length, namespace, 0, namespace.length);
    }

    @Override
    public Set<Map.Entry<K, V>> entrySet() {
        return entrySet;
    }

    private List<Map.Entry<K, V>> readEntries() {
        List<Map.Entry<K, V>> out = new ArrayList<>();
        try (CloseableIterator<StateEntry<V>> it = state.entries(key)) {
            while (it.hasNext()) {
                StateEntry<V> e = it.next();
                byte[] ns = e.namespace();
                if (ours(ns)) {
                    K k = keySerializer.deserialize(Arrays.copyOfRange(ns, namespace.length, ns.length));
                    out.add(new SimpleImmutableEntry<>(k, e.value()));
                }
            }
        }
        return out;
    }

    private final class EntrySet extends AbstractSet<Map.Entry<K, V>> {

        @Override
        public Iterator<Map.Entry<K, V>> iterator() {
            Iterator<Map.Entry<K, V>> read = readEntries().iterator();
            return new Iterator<>() {
                private Map.Entry<K, V> last;

                @Override
                public boolean hasNext() {
                    return read.hasNext();
                }

                @Override
                public Map.Entry<K, V> next() {
                    last = read.next();
                    return last;
                }

                @Override
                public void remove() {
                    StateMapView.this.remove(last.getKey());
                }
            };
        }

        @Override
        public int size() {
            return readEntries().size();
        }
    }
}
