package dev.rsql.runtime.connector;

import java.util.List;
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

    /**
     * Whether a shard without a checkpointed position may resume from an offset committed outside the job (a RocketMQ
     * consumer group's). False when the job keeps positions in its own checkpoints (a local job with state): an offset
     * committed there belongs to state the job no longer has (reset, started from scratch, or a changed source), so
     * such a shard starts from the table's startup mode.
     */
    default boolean resumesCommittedOffsets() {
        return true;
    }

    /** A shard to read; the engine creates a task that owns the reader from now on. */
    void shardAssigned(ShardReader reader);

    /**
     * Shards to read that were assigned together (all shards of a bounded source, the queues of one rebalance). The
     * engine connects every one's task before any starts reading: the watermark downstream is the minimum over the
     * shards connected so far, so a shard read before the others are connected could move it past their rows, which
     * would then come late.
     */
    default void shardsAssigned(List<? extends ShardReader> readers) {
        readers.forEach(this::shardAssigned);
    }

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
