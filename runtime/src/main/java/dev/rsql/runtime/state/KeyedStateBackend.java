package dev.rsql.runtime.state;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The state of one task: every keyed value and timer of its operators, in one local store (RocksDB or the heap, see
 * {@code StoreStateBackend}). Keys are stored with the operator, the state, the key group of the key, the key and the
 * namespace, so that operators never collide and state can later be split by key group. Used only from the task's
 * thread.
 *
 * <p>Durability comes from {@link #snapshot}: a consistent copy taken at a checkpoint. After a crash the task reopens
 * its state from the last completed checkpoint, so nothing here needs a write-ahead log.
 */
public interface KeyedStateBackend extends AutoCloseable {

    /** Number of key groups keys are hashed into (fixed for the life of the job's state). */
    int keyGroups();

    /**
     * A value state. {@code operatorId} is the graph node's stable id; {@code name} tells apart the states of one
     * operator. The same arguments return the same state.
     */
    <V> KeyedValueState<V> valueState(String operatorId, String name, TypeSerializer<V> serializer);

    /** The timers of one operator. */
    TimerService timerService(String operatorId);

    /** Writes a consistent copy of all state into {@code dir}, which must not exist yet. */
    void snapshot(Path dir) throws IOException;

    /** Bytes the store occupies on disk (for status and benchmarks). */
    long sizeOnDisk();

    @Override
    void close();
}
