package dev.rsql.runtime.connector;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Point lookups of one task in a dimension table ({@link LookupSource#openReader}): the rows whose key columns
 * equal a key. {@link #lookup} is called by one thread at a time; {@link #lookupAsync} may be called again before
 * earlier futures complete, so an asynchronous implementation keeps several queries in flight.
 */
public interface LookupReader extends AutoCloseable {

    /**
     * The rows (every column, schema order) whose key columns equal {@code key} (values in the order of the key
     * columns, internal representation, none null); empty when there is none. Blocking.
     */
    List<Object[]> lookup(Object[] key) throws Exception;

    /**
     * {@link #lookup} without blocking the task: the future may complete on any thread (the engine hands the result
     * back to the task through its mailbox). By default the blocking lookup runs on {@code executor}.
     */
    default CompletableFuture<List<Object[]>> lookupAsync(Object[] key, Executor executor) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return lookup(key);
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, executor);
    }

    @Override
    void close();
}
