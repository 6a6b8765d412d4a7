package dev.rsql.runtime.state.store;

import dev.rsql.runtime.state.CloseableIterator;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Where a {@link StoreStateBackend} keeps its entries: raw keys and values in the column families of
 * {@link StateColumnFamily}, ordered by unsigned key bytes. The backend owns the key layout ({@link KeyBuffer}); a
 * store only keeps bytes. Two implementations: RocksDB (state larger than memory, in little heap) and the heap (state
 * that fits, at a fraction of RocksDB's cost per write), as Flink's {@code state.backend.type}.
 *
 * <p>Used from one task's thread. Failures of the store itself are {@link dev.rsql.runtime.state.StateException}s.
 */
public interface StateStore extends AutoCloseable {

    /** Turns a stored entry into what an iterator returns. */
    @FunctionalInterface
    interface Decoder<T> {
        T decode(byte[] key, byte[] value);
    }

    /** The value of {@code key[0, keyLength)}, or null. */
    byte[] get(StateColumnFamily cf, byte[] key, int keyLength);

    /** Writes {@code key[0, keyLength)}; the store keeps {@code value} as it is (callers never modify it again). */
    void put(StateColumnFamily cf, byte[] key, int keyLength, byte[] value);

    void delete(StateColumnFamily cf, byte[] key, int keyLength);

    /**
     * Writes whole keys with their values (null deletes), each key at most once. The store keeps the arrays as they
     * are.
     */
    void write(StateColumnFamily cf, byte[][] keys, byte[][] values);

    /**
     * Whether {@link #write} of many entries costs less than a {@link #put} of each, enough to pay for building whole
     * key arrays for it.
     */
    boolean writesBatches();

    /**
     * The entries with keys in {@code [from, to)} ({@code to} null: no upper bound), in key order, as of the call for
     * {@link StateColumnFamily#VALUES} (the caller may change the state meanwhile). In the other families the caller
     * must not change the state while the iterator is open.
     */
    <T> CloseableIterator<T> scan(StateColumnFamily cf, byte[] from, byte[] to, Decoder<T> decoder);

    /** Hands every entry of every column family to the visitor, as of the call, in no particular order. */
    void forEachEntry(RawEntryVisitor visitor) throws IOException;

    /** Writes a consistent copy of every entry into {@code dir}, which must not exist yet. */
    void snapshot(Path dir) throws IOException;

    /** Bytes the store occupies on disk (0 in the heap). */
    long sizeOnDisk();

    /** Memory the store takes in bytes: native memory for RocksDB, an estimate of its heap for the heap store. */
    long memoryUsage();

    /** Where the store is, for messages: a directory, or the heap. */
    String location();

    @Override
    void close();
}
