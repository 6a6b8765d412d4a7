package dev.rsql.runtime.state;

import java.util.Iterator;

/** An iterator over stored state that holds native resources until closed. */
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {

    @Override
    void close();
}
