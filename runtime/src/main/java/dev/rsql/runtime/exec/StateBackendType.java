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
 * outgrow the heap, and a job starts in a small one) or {@code hashmap} (in the heap, several times cheaper per
 * write, bounded by {@link HeapStateMemory}). Both keep the same entries, so a job may switch between restarts: a
 * snapshot of the other kind is read into the configured store.
 */
public enum StateBackendType implements StateStoreFactory {
    ROCKSDB("rocksdb") {
        @Override
        public StateStore open(Path workingDir, Path restoreFrom) throws IOException {
            if (restoreFrom == null || !HeapStore.isSnapshot(restoreFrom)) {
                return RocksDbStore.open(workingDir, restoreFrom, RocksDbOptions.defaults());
            }
            RocksDbStore store = RocksDbStore.open(workingDir, null, RocksDbOptions.defaults());
            try (HeapStore snapshot = HeapStore.restore(restoreFrom, HeapStateMemory.jvm(), workingDir.toString())) {
                return copy(snapshot, store, restoreFrom);
            } catch (IOException | RuntimeException e) {
                store.close();
                throw e;
            }
        }
    },
    HASHMAP("hashmap") {
        @Override
        public StateStore open(Path workingDir, Path restoreFrom) throws IOException {
            String location = "task directory " + workingDir;
            if (restoreFrom == null) {
                return HeapStore.empty(HeapStateMemory.jvm(), location);
            }
            if (!RocksDbStore.isSnapshot(restoreFrom)) {
                return HeapStore.restore(restoreFrom, HeapStateMemory.jvm(), location);
            }
            HeapStore store = HeapStore.empty(HeapStateMemory.jvm(), location);
            try (RocksDbStore snapshot = RocksDbStore.open(workingDir, restoreFrom, RocksDbOptions.defaults())) {
                return copy(snapshot, store, restoreFrom);
            } catch (IOException | RuntimeException e) {
                store.close();
                throw e;
            }
        }
    };

    public static final String KEY = "state.backend.type";
    private static final Logger LOG = LoggerFactory.getLogger(StateBackendType.class);

    private final String configName;

    StateBackendType(String configName) {
        this.configName = configName;
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

    /** Copies a snapshot of the other kind, opened in {@code from}, into the store a task will use. */
    private static StateStore copy(StateStore from, StateStore to, Path snapshot) throws IOException {
        from.forEachEntry((cf, key, value) -> to.put(cf, key, key.length, value));
        LOG.info("state snapshot {} of the other state.backend.type read into {}", snapshot, to.location());
        return to;
    }

    @Override
    public String toString() {
        return configName;
    }
}
