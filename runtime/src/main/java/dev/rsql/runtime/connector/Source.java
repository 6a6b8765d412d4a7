package dev.rsql.runtime.connector;

import java.util.List;

/**
 * The readable side of a table. A source splits into shards (a RocketMQ queue, a file); the engine runs one task per
 * shard assigned to this process. Shards may come and go while the job runs (consumer-group rebalancing).
 */
public interface Source extends AutoCloseable {

    /** True when every shard ends (files, datagen with a row count): the job finishes once all are read. */
    boolean isBounded();

    /** Starts discovering shards; they are announced to the listener, possibly from another thread. */
    void start(ShardListener listener) throws Exception;

    /**
     * Every shard of the source, read here or by another process of the job (a topic's queues), once started; empty
     * when the source cannot tell. A distributed job's downstream watermark waits for each of them.
     */
    default List<String> allShardIds() throws Exception {
        return List.of();
    }

    /**
     * What this source reads, as far as its shards' positions depend on it, e.g. {@code topic orders} or
     * {@code path /data/in}: positions a checkpoint took of a source with another identity are not applied to this one
     * (a changed topic starts from its startup mode). Empty (the default) when positions fit whatever the options.
     */
    default String identity() {
        return "";
    }

    /** Stops discovering shards and releases shared resources. Called after every reader is closed. */
    @Override
    void close();
}
