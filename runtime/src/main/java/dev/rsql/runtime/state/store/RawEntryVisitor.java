package dev.rsql.runtime.state.store;

import java.io.IOException;

/** Receives stored entries of a {@link StoreStateBackend} as raw keys and values. */
@FunctionalInterface
public interface RawEntryVisitor {

    /** {@code value} is null for a key that was deleted (a tombstone). */
    void visit(StateColumnFamily cf, byte[] key, byte[] value) throws IOException;
}
