package dev.rsql.runtime.state.rocksdb;

import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.store.StateStore;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

import java.util.NoSuchElementException;

/**
 * Iterates the keys of one column family in {@code [from, to)}, decoding each entry. Holds a native iterator, read
 * options and a bound slice until closed; closes itself when exhausted, and the store closes any left open when it
 * closes. Sees the state as of its creation (RocksDB iterators read an implicit snapshot), so the caller may modify
 * the state while iterating.
 */
final class RocksDbIterator<T> implements CloseableIterator<T> {

    private final RocksDbStore store;
    private final StateStore.Decoder<T> decoder;
    private final ReadOptions readOptions;
    private final Slice upperBound;
    private final RocksIterator iterator;
    private boolean closed;

    RocksDbIterator(RocksDbStore store, ColumnFamilyHandle cf, byte[] from, byte[] to,
                    StateStore.Decoder<T> decoder) {
        this.store = store;
        this.decoder = decoder;
        ReadOptions ro = new ReadOptions();
        Slice ub = null;
        RocksIterator it = null;
        try {
            if (to != null) {
                ub = new Slice(to);
                ro.setIterateUpperBound(ub);
            }
            it = store.db().newIterator(cf, ro);
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
        store.iteratorOpened(this);
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
        store.iteratorClosed(this);
    }
}
