package dev.rsql.runtime.state.rocksdb;

import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.StateException;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

import java.util.NoSuchElementException;

/**
 * Iterates the keys of one column family in {@code [from, to)}, decoding each entry. Holds a native iterator, read
 * options and a bound slice until closed; closes itself when exhausted, and the backend closes any left open when it
 * closes. Sees the state as of its creation (RocksDB iterators read an implicit snapshot), so the caller may modify
 * the state while iterating.
 */
final class RocksDbIterator<T> implements CloseableIterator<T> {

    @FunctionalInterface
    interface Decoder<T> {
        T decode(byte[] key, byte[] value);
    }

    private final RocksDbStateBackend backend;
    private final Decoder<T> decoder;
    private final ReadOptions readOptions;
    private final Slice upperBound;
    private final RocksIterator iterator;
    private boolean closed;

    RocksDbIterator(RocksDbStateBackend backend, ColumnFamilyHandle cf, byte[] from, byte[] to, Decoder<T> decoder) {
        backend.ensureOpen(); // a closed DB handle would crash the JVM
        this.backend = backend;
        this.decoder = decoder;
        ReadOptions ro = new ReadOptions();
        Slice ub = null;
        RocksIterator it = null;
        try {
            if (to != null) {
                ub = new Slice(to);
                ro.setIterateUpperBound(ub);
            }
            it = backend.db().newIterator(cf, ro);
            it.seek(from);
        } catch (RuntimeException | Error e) {
            if (it != null) {
                it.close();
            }
            if (ub != null) {
                ub.close();
            }
            ro.close();
            throw e;
        }
        this.readOptions = ro;
        this.upperBound = ub;
        this.iterator = it;
        backend.iteratorOpened(this);
    }

    @Override
    public boolean hasNext() {
        if (closed) {
            return false;
        }
        if (iterator.isValid()) {
            return true;
        }
        try {
            iterator.status();
        } catch (RocksDBException e) {
            close();
            throw new StateException("state iteration failed", e);
        }
        close();
        return false;
    }

    @Override
    public T next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        byte[] key = iterator.key();
        byte[] value = iterator.value();
        iterator.next();
        return decoder.decode(key, value);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        iterator.close();
        if (upperBound != null) {
            upperBound.close();
        }
        readOptions.close();
        backend.iteratorClosed(this);
    }
}
