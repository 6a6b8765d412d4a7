package dev.rsql.runtime.state.heap;

import dev.rsql.runtime.state.StateException;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap that the {@link HeapStore}s of one JVM may take together, so that state outgrowing the heap ends its job
 * with an error that says what to do, not with an {@link OutOfMemoryError} in whatever thread allocates next. Stores
 * reserve in chunks, so the shared counter is touched about once per megabyte written, not per write.
 */
public final class HeapStateMemory {

    /** Share of the JVM's maximum heap that state in the heap may take by default. */
    public static final double DEFAULT_FRACTION = 0.5;
    static final long CHUNK = 1L << 20;

    private static final HeapStateMemory JVM =
            new HeapStateMemory((long) (Runtime.getRuntime().maxMemory() * DEFAULT_FRACTION));

    private final long limit;
    private final AtomicLong reserved = new AtomicLong();

    public HeapStateMemory(long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive, got " + limit);
        }
        this.limit = limit;
    }

    /** The budget of this JVM: {@link #DEFAULT_FRACTION} of its maximum heap. */
    public static HeapStateMemory jvm() {
        return JVM;
    }

    /** Takes {@code bytes} from the budget, or throws if that would exceed it ({@code where}: for the message). */
    void reserve(long bytes, String where) {
        long now = reserved.addAndGet(bytes);
        if (now > limit) {
            reserved.addAndGet(-bytes);
            throw new StateException(String.format("state in the heap (%s) would take more than %,d MB, the share of"
                    + " this JVM's heap that state may use; give the JVM more heap (-Xmx in RSQL_HEAP_OPTS) or keep the"
                    + " state in RocksDB: SET 'state.backend.type' = 'rocksdb'", where, limit >> 20));
        }
    }

    void release(long bytes) {
        reserved.addAndGet(-bytes);
    }

    long reserved() {
        return reserved.get();
    }
}
