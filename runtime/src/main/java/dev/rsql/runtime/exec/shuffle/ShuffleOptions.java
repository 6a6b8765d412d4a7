package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;

import java.time.Duration;

/**
 * Settings of the shuffles of a job.
 *
 * @param queues          queues of a shuffle topic ({@code shuffle.queues}): the parallelism of a keyed stage
 * @param batchBytes      a queue's batch is sent once it holds this many bytes ({@code shuffle.batch.bytes})
 * @param batchDelay      ... or once its first event waited this long ({@code shuffle.batch.delay})
 * @param maxPendingBytes a writer is congested while more than this is sent but not acknowledged
 *                        ({@code shuffle.max-pending-bytes})
 * @param sendTimeout     one send attempt ({@code shuffle.send.timeout})
 * @param retryTimeout    how long a batch is retried after transient failures before the writer fails
 *                        ({@code shuffle.send.retry-timeout})
 */
public record ShuffleOptions(int queues, int batchBytes, Duration batchDelay, long maxPendingBytes,
                             Duration sendTimeout, Duration retryTimeout) {

    /** Largest batch: RocketMQ rejects message bodies over 4 MiB by default. */
    static final int MAX_BATCH_BYTES = 4 * 1024 * 1024 - 64 * 1024;

    public ShuffleOptions {
        check(queues >= 1, "shuffle.queues must be at least 1, got " + queues);
        check(batchBytes >= 1 && batchBytes <= MAX_BATCH_BYTES,
                "shuffle.batch.bytes must be in [1, " + MAX_BATCH_BYTES + "], got " + batchBytes);
        check(!batchDelay.isNegative(), "shuffle.batch.delay must not be negative, got " + batchDelay);
        check(maxPendingBytes >= batchBytes, "shuffle.max-pending-bytes must be at least shuffle.batch.bytes ("
                + batchBytes + "), got " + maxPendingBytes);
        check(sendTimeout.toMillis() >= 1, "shuffle.send.timeout must be at least 1 ms, got " + sendTimeout);
        check(!retryTimeout.isNegative(), "shuffle.send.retry-timeout must not be negative, got " + retryTimeout);
    }

    public static ShuffleOptions defaults() {
        return from(Options.empty());
    }

    public static ShuffleOptions from(Options config) {
        return new ShuffleOptions(
                config.getInt(8, "shuffle.queues"),
                config.getInt(64 * 1024, "shuffle.batch.bytes"),
                config.getDuration(Duration.ofMillis(10), "shuffle.batch.delay"),
                config.getLong(16L * 1024 * 1024, "shuffle.max-pending-bytes"),
                config.getDuration(Duration.ofSeconds(3), "shuffle.send.timeout"),
                config.getDuration(Duration.ofMinutes(2), "shuffle.send.retry-timeout"));
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new ConfigException(message);
        }
    }
}
