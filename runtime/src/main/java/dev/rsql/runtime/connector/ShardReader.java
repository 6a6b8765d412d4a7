package dev.rsql.runtime.connector;

/**
 * Reads one shard. Owned by one task and called only from the thread running that task, except
 * {@link #setAvailabilityListener}'s callback, which the reader may invoke from any thread.
 */
public interface ShardReader {

    /** Stable identity of the shard within the source, e.g. {@code orders@broker-a#3}. */
    String shardId();

    /** Human-readable description for logs and status, e.g. {@code topic orders, queue 3 (broker-a)}. */
    String description();

    /**
     * Hands up to {@code maxRecords} records to the output and returns how many it read; 0 when none is available
     * right now. Must not block for long (bounded file reads are fine).
     */
    int read(ReaderOutput output, int maxRecords) throws Exception;

    /** True once a bounded shard has handed out its last record. Unbounded shards never end. */
    boolean isEndOfInput();

    /** Called (from any thread) when records become available after {@link #read} returned 0. */
    void setAvailabilityListener(Runnable listener);

    /** Describes a record position for messages, e.g. {@code topic orders, queue 3 (broker-a), offset 1234}. */
    String describePosition(long position);

    /** The position after the last record handed out, e.g. the next queue offset to read. */
    long position();

    /** Everything before {@code position} has been handed to the sinks: remember it (commit a consumer offset). */
    void commit(long position) throws Exception;

    /** Records not yet handed out (queue lag), or -1 when unknown. For status and idleness. */
    default long lag() {
        return -1;
    }

    void close();
}
