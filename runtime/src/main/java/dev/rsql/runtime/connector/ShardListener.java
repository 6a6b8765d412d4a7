package dev.rsql.runtime.connector;

/** Receives the shards a source assigns to this process. Implemented by the engine. */
public interface ShardListener {

    /** A shard to read; the engine creates a task that owns the reader from now on. */
    void shardAssigned(ShardReader reader);

    /**
     * The shard is being taken away (moved to another instance). Blocks until its task has finished the records it
     * holds, handed their results to the sinks, committed the position, and closed the reader.
     */
    void shardRevoked(String shardId);

    /** A bounded source has announced all its shards. */
    void noMoreShards();

    /** The source failed outside of any shard (e.g. cannot reach the name server). Fails the job. */
    void sourceFailed(Throwable cause);
}
