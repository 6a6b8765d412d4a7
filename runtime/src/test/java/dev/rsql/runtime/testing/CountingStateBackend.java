package dev.rsql.runtime.testing;

import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedStateBackend;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.TimerService;
import dev.rsql.runtime.state.TypeSerializer;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A state backend that counts what its value states are asked to do (reads, writes, entries iterated) and the bytes
 * of the values and namespaces they read and write, around a real backend: tests assert the cost of state access
 * without timing anything.
 */
public final class CountingStateBackend implements KeyedStateBackend {

    private final KeyedStateBackend backend;
    private long accesses;
    private long writes;
    private long bytes;

    public CountingStateBackend(KeyedStateBackend backend) {
        this.backend = backend;
    }

    /** Gets, puts, removes and entries iterated since the last {@link #reset}. */
    public long accesses() {
        return accesses;
    }

    /** Of the {@link #accesses}, the puts and removes. */
    public long writes() {
        return writes;
    }

    /** Bytes of the values and namespaces read or written since the last {@link #reset}. */
    public long bytes() {
        return bytes;
    }

    public void reset() {
        accesses = 0;
        writes = 0;
        bytes = 0;
    }

    @Override
    public int keyGroups() {
        return backend.keyGroups();
    }

    @Override
    public <V> KeyedValueState<V> valueState(String operatorId, String name, TypeSerializer<V> serializer) {
        KeyedValueState<V> state = backend.valueState(operatorId, name, serializer);
        return new KeyedValueState<>() {
            private void count(byte[] namespace, V value) {
                accesses++;
                bytes += namespace.length + (value == null ? 0 : serializer.serialize(value).length);
            }

            @Override
            public V get(byte[] key, byte[] namespace) {
                V v = state.get(key, namespace);
                count(namespace, v);
                return v;
            }

            @Override
            public void put(byte[] key, byte[] namespace, V value) {
                count(namespace, value);
                writes++;
                state.put(key, namespace, value);
            }

            @Override
            public void remove(byte[] key, byte[] namespace) {
                count(namespace, null);
                writes++;
                state.remove(key, namespace);
            }

            @Override
            public CloseableIterator<StateEntry<V>> entries(byte[] key) {
                return counted(state.entries(key));
            }

            @Override
            public CloseableIterator<StateEntry<V>> all() {
                return counted(state.all());
            }

            private CloseableIterator<StateEntry<V>> counted(CloseableIterator<StateEntry<V>> it) {
                accesses++; // the seek
                return new CloseableIterator<>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public StateEntry<V> next() {
                        StateEntry<V> e = it.next();
                        count(e.namespace(), e.value());
                        return e;
                    }

                    @Override
                    public void close() {
                        it.close();
                    }
                };
            }
        };
    }

    @Override
    public TimerService timerService(String operatorId) {
        return backend.timerService(operatorId);
    }

    @Override
    public void snapshot(Path dir) throws IOException {
        backend.snapshot(dir);
    }

    @Override
    public long sizeOnDisk() {
        return backend.sizeOnDisk();
    }

    @Override
    public void close() {
        backend.close();
    }
}
