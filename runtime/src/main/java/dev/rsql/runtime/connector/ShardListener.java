package dev.rsql.runtime.connector;

import java.util.OptionalLong;

/** Receives the shards a source assigns to this process. Implemented by the engine. */
public interface ShardListener {

    /**
     * Where the job's last completed checkpoint says this shard's reading continues, if it has one. A source positions
     * a newly assigned shard there, ahead of any committed consumer offset, so state and input stay consistent.
     */
    default OptionalLong checkpointedPosition(String shardId) {
        return OptionalLong.empty();
    }

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
