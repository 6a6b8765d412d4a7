package dev.rsql.runtime.state.store;

import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.TypeSerializer;

import java.util.List;

/**
 * One value state in the backend's value column family, under the prefix of its 4-byte state id. A {@code put} of
 * {@code null} removes the value. {@link #all()} runs in key-group order; within a key group keys come in the order
 * of their length-prefixed bytes (shorter keys first), and a key's namespaces in byte order.
 */
final class StoreValueState<V> implements KeyedValueState<V> {

    private final StoreStateBackend backend;
    private final int stateId;
    private final String description;
    private final TypeSerializer<V> serializer;
    private final StateStore.Decoder<StateEntry<V>> decoder = decoder(true);
    private final StateStore.Decoder<StateEntry<V>> keyDecoder = decoder(false);

    StoreValueState(StoreStateBackend backend, int stateId, String description, TypeSerializer<V> serializer) {
        this.backend = backend;
        this.stateId = stateId;
        this.description = description;
        this.serializer = serializer;
    }

    /**
     * Stored entries as key, namespace and, if {@code values}, the value (read when called, so after the constructor).
     * Stored keys: [state id 4][key group 2][varint length][key][namespace].
     */
    private StateStore.Decoder<StateEntry<V>> decoder(boolean values) {
        return (k, v) -> {
            byte[][] parts = KeyBuffer.keyAndNamespace(k, 6);
            return new StateEntry<>(parts[0], parts[1], values ? serializer.deserialize(v) : null);
        };
    }

    TypeSerializer<V> serializer() {
        return serializer;
    }

    int stateId() {
        return stateId;
    }

    @Override
    public V get(byte[] key, byte[] namespace) {
        KeyBuffer k = backend.valueKeyBuffer().value(stateId, backend.keyGroupOf(key), key, namespace);
        byte[] bytes = backend.store().get(StateColumnFamily.VALUES, k.buf, k.len);
        return bytes == null ? null : serializer.deserialize(bytes);
    }

    @Override
    public void put(byte[] key, byte[] namespace, V value) {
        if (value == null) {
            remove(key, namespace);
            return;
        }
        byte[] bytes = serializer.serialize(value);
        KeyBuffer k = backend.valueKeyBuffer().value(stateId, backend.keyGroupOf(key), key, namespace);
        backend.put(StateColumnFamily.VALUES, k.buf, k.len, bytes);
    }

    @Override
    public void remove(byte[] key, byte[] namespace) {
        KeyBuffer k = backend.valueKeyBuffer().value(stateId, backend.keyGroupOf(key), key, namespace);
        backend.delete(StateColumnFamily.VALUES, k.buf, k.len);
    }

    /**
     * One batch where the store writes batches cheaper than single entries (RocksDB, for more than one entry);
     * otherwise entry by entry, with keys built in the shared buffer instead of copied for the batch.
     */
    @Override
    public void write(List<StateEntry<V>> entries) {
        int n = entries.size();
        if (n == 1 || !backend.store().writesBatches()) {
            for (StateEntry<V> e : entries) {
                put(e.key(), e.namespace(), e.value());
            }
            return;
        }
        byte[][] keys = new byte[n][];
        byte[][] values = new byte[n][];
        for (int i = 0; i < n; i++) {
            StateEntry<V> e = entries.get(i);
            keys[i] = backend.valueKeyBuffer().value(stateId, backend.keyGroupOf(e.key()), e.key(), e.namespace())
                    .copy();
            values[i] = e.value() == null ? null : serializer.serialize(e.value());
        }
        backend.write(StateColumnFamily.VALUES, keys, values);
    }

    @Override
    public CloseableIterator<StateEntry<V>> entries(byte[] key) {
        byte[] prefix = backend.valueKeyBuffer().valuePrefix(stateId, backend.keyGroupOf(key), key).copy();
        return backend.store().scan(StateColumnFamily.VALUES, prefix, KeyBuffer.successor(prefix), decoder);
    }

    @Override
    public CloseableIterator<StateEntry<V>> all() {
        return scan(decoder);
    }

    @Override
    public CloseableIterator<StateEntry<V>> keys() {
        return scan(keyDecoder);
    }

    private CloseableIterator<StateEntry<V>> scan(StateStore.Decoder<StateEntry<V>> entries) {
        backend.ensureOpen();
        byte[] prefix = KeyBuffer.intBytes(stateId);
        return backend.store().scan(StateColumnFamily.VALUES, prefix, KeyBuffer.successor(prefix), entries);
    }

    @Override
    public String toString() {
        return description;
    }
}
