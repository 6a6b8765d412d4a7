package dev.rsql.runtime.lookup;

import java.util.List;

/** What a lookup join task asks: the dimension rows of a key, from a cache or the source. Used by one task thread. */
public interface LookupTable extends AutoCloseable {

    /** The rows (every column of the table) whose lookup columns equal {@code key} (no null in it); may be empty. */
    List<Object[]> lookup(Object[] key) throws Exception;

    @Override
    void close();
}
