package org.apache.flink.table.api.dataview;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * A map in an accumulator (a field of type {@code MapView<K, V>}, its key and value types declared). In a GROUP BY the
 * engine backs it by keyed state, one entry per map entry, so a function touching one key costs the same whatever the
 * map holds; elsewhere it is a plain map stored with the accumulator. Keys are compared by their stored bytes.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public class MapView<K, V> implements DataView {

    private static final long serialVersionUID = 1L;

    private Map<K, V> map = new HashMap<>();

    /** The backing map (the engine replaces it by a state-backed one). */
    public Map<K, V> getMap() {
        return map;
    }

    public void setMap(Map<K, V> map) {
        this.map = Objects.requireNonNull(map);
    }

    /** The value of {@code key}, or null. */
    public V get(K key) throws Exception {
        return map.get(key);
    }

    public void put(K key, V value) throws Exception {
        map.put(key, value);
    }

    public void putAll(Map<K, V> entries) throws Exception {
        for (Map.Entry<K, V> e : entries.entrySet()) {
            map.put(e.getKey(), e.getValue());
        }
    }

    public void remove(K key) throws Exception {
        map.remove(key);
    }

    public boolean contains(K key) throws Exception {
        return map.containsKey(key);
    }

    public Iterable<Map.Entry<K, V>> entries() throws Exception {
        return map.entrySet();
    }

    public Iterable<K> keys() throws Exception {
        return map.keySet();
    }

    public Iterable<V> values() throws Exception {
        return map.values();
    }

    public Iterator<Map.Entry<K, V>> iterator() throws Exception {
        return map.entrySet().iterator();
    }

    public boolean isEmpty() throws Exception {
        return map.isEmpty();
    }

    @Override
    public void clear() {
        map.clear();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MapView && map.equals(((MapView<?, ?>) o).map);
    }

    @Override
    public int hashCode() {
        return map.hashCode();
    }
}
