package dev.rsql.runtime.exec;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.state.heap.HeapStateMemory;
import dev.rsql.runtime.state.heap.HeapStore;
import dev.rsql.runtime.state.rocksdb.RocksDbOptions;
import dev.rsql.runtime.state.rocksdb.RocksDbStore;
import dev.rsql.runtime.state.store.StateStore;
import dev.rsql.runtime.state.store.StateStoreFactory;
import dev.rsql.runtime.state.store.StoreStateBackend;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where a job's tasks keep keyed state, Flink's {@code state.backend.type}: {@code rocksdb} (the default: state may
 * outgrow the heap, and a job starts in a small one) or {@code hashmap} (in the heap, cheaper per write, bounded
 * by {@link HeapStateMemory}). Both keep the same entries, so a job may switch between restarts: a
 * snapshot of the other kind is read into the configured store.
 */
public enum StateBackendType implements StateStoreFactory {
    ROCKSDB("rocksdb") {
        @Override
        boolean isSnapshot(Path dir) {
            return RocksDbStore.isSnapshot(dir);
        }

        @Override
        StateStore openStore(Path workingDir, Path restoreFrom) throws IOException {
            return RocksDbStore.open(workingDir, restoreFrom, RocksDbOptions.defaults());
        }
    },
    HASHMAP("hashmap") {
        @Override
        boolean isSnapshot(Path dir) {
            return HeapStore.isSnapshot(dir);
        }

        @Override
        StateStore openStore(Path workingDir, Path restoreFrom) throws IOException {
            String location = "task directory " + workingDir;
            return restoreFrom == null ? HeapStore.empty(HeapStateMemory.jvm(), location)
                    : HeapStore.restore(restoreFrom, HeapStateMemory.jvm(), location);
        }
    };

    public static final String KEY = "state.backend.type";
    private static final Logger LOG = LoggerFactory.getLogger(StateBackendType.class);

    private final String configName;

    StateBackendType(String configName) {
        this.configName = configName;
    }

    /** Whether {@code dir} holds a snapshot of a store of this type. */
    abstract boolean isSnapshot(Path dir);

    /** Opens a store of this type, from one of its own snapshots or empty. */
    abstract StateStore openStore(Path workingDir, Path restoreFrom) throws IOException;

    /**
     * Opens a store of this type; a snapshot of the other type is opened in its own store (which RocksDB keeps in
     * the working directory, the heap nowhere, so both fit) and its entries are copied over.
     */
    @Override
    public StateStore open(Path workingDir, Path restoreFrom) throws IOException {
        if (restoreFrom == null || !other().isSnapshot(restoreFrom)) {
            return openStore(workingDir, restoreFrom);
        }
        StateStore store = openStore(workingDir, null);
        try (StateStore snapshot = other().openStore(workingDir, restoreFrom)) {
            snapshot.forEachEntry((cf, key, value) -> store.put(cf, key, key.length, value));
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
        LOG.info("state snapshot {} of state.backend.type {} read into {}", restoreFrom, other(), store.location());
        return store;
    }

    private StateBackendType other() {
        return this == ROCKSDB ? HASHMAP : ROCKSDB;
    }

    /** The type a job's settings name; an unknown one is an error that lists the known ones. */
    public static StateBackendType of(Options config) {
        String name = config.getOrDefault(ROCKSDB.configName, KEY).trim().toLowerCase(Locale.ROOT);
        for (StateBackendType type : values()) {
            if (type.configName.equals(name)) {
                return type;
            }
        }
        throw new ConfigException(KEY + " must be 'rocksdb' or 'hashmap', got '" + config.get(KEY) + "'");
    }

    /**
     * Opens the keyed state of a task in a store of this type: {@code workingDir} is the task's own directory,
     * {@code restoreFrom} a snapshot to start from (of either type) or null.
     */
    public StoreStateBackend openBackend(Path workingDir, Path restoreFrom, int keyGroups) throws IOException {
        return StoreStateBackend.open(open(workingDir, restoreFrom), keyGroups,
                restoreFrom == null ? null : restoreFrom.toString());
    }

    @Override
    public String toString() {
        return configName;
    }
}
