package dev.rsql.runtime.state.rocksdb;

/**
 * Memory and file settings of a {@link RocksDbStore}. The defaults keep one store (one task) within about
 * {@code blockCacheBytes} of native memory, so that a job with many tasks starts in a small JVM.
 *
 * @param blockCacheBytes capacity of the LRU block cache (data, index and filter blocks); the memtables are charged to
 *                        it too, so this bounds the store's native memory (plus a few hundred KiB of overhead)
 * @param writeBufferBytes memtable budget of the store, part of {@code blockCacheBytes}: the value column family
 *                         gets memtables of half of it, the timer column family of a quarter
 * @param maxOpenFiles SST files kept open ({@code -1}: all)
 * @param sharedMemory if not null, the block cache and memtable budget shared by every store that uses it (for
 *                     many tasks in one JVM); then {@code blockCacheBytes} is ignored
 */
public record RocksDbOptions(long blockCacheBytes, long writeBufferBytes, int maxOpenFiles,
                             RocksDbSharedMemory sharedMemory) {

    public static final long DEFAULT_BLOCK_CACHE_BYTES = 16L << 20;
    public static final long DEFAULT_WRITE_BUFFER_BYTES = 8L << 20;
    public static final int DEFAULT_MAX_OPEN_FILES = 256;

    public RocksDbOptions {
        if (writeBufferBytes < 256 << 10) {
            throw new IllegalArgumentException("writeBufferBytes must be at least 256 KiB, got " + writeBufferBytes);
        }
        if (sharedMemory == null && blockCacheBytes <= writeBufferBytes) {
            throw new IllegalArgumentException("blockCacheBytes (" + blockCacheBytes
                    + ") must exceed writeBufferBytes (" + writeBufferBytes + "): memtables are charged to the cache");
        }
    }

    public static RocksDbOptions defaults() {
        return new RocksDbOptions(DEFAULT_BLOCK_CACHE_BYTES, DEFAULT_WRITE_BUFFER_BYTES, DEFAULT_MAX_OPEN_FILES, null);
    }

    public RocksDbOptions withSharedMemory(RocksDbSharedMemory memory) {
        return new RocksDbOptions(blockCacheBytes, writeBufferBytes, maxOpenFiles, memory);
    }
}
