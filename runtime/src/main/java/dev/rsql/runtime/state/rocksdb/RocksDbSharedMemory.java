package dev.rsql.runtime.state.rocksdb;

import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * A block cache and memtable budget shared by several {@link RocksDbStore}s (e.g. all tasks of a JVM), so
 * that native memory is bounded by one number however many tasks run. Close it after every store using it.
 */
public final class RocksDbSharedMemory implements AutoCloseable {

    static {
        RocksDB.loadLibrary();
    }

    private final Cache cache;
    private final WriteBufferManager writeBufferManager;
    private final long capacity;

    /** {@code writeBufferBytes} of the {@code cacheBytes} may hold memtables. */
    public RocksDbSharedMemory(long cacheBytes, long writeBufferBytes) {
        if (cacheBytes <= writeBufferBytes) {
            throw new IllegalArgumentException("cacheBytes must exceed writeBufferBytes");
        }
        this.capacity = cacheBytes;
        this.cache = new LRUCache(cacheBytes, -1, false, 0.1);
        this.writeBufferManager = new WriteBufferManager(writeBufferBytes, cache);
    }

    Cache cache() {
        return cache;
    }

    WriteBufferManager writeBufferManager() {
        return writeBufferManager;
    }

    public long capacity() {
        return capacity;
    }

    /** Bytes of the cache in use (blocks and memtable reservations). */
    public long usage() {
        return cache.getUsage();
    }

    @Override
    public void close() {
        writeBufferManager.close();
        cache.close();
    }
}
