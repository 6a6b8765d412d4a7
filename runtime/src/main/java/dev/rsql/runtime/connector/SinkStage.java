package dev.rsql.runtime.connector;

import java.util.List;

/**
 * Lets a sink writer keep a transaction's rows with its task's checkpoint and publish them only once the checkpoint
 * is recorded ({@link SinkWriter#commit}): exactly-once output without the external system's transactions. A task
 * whose checkpoint cannot keep rows gives none ({@link SinkWriterContext#sinkStage}).
 *
 * <p>A crash between recording a checkpoint and publishing all its rows leaves some unpublished; the task that
 * restores the checkpoint hands its writer what it staged ({@link #join}), and the writer publishes what is missing
 * before anything else.
 */
public interface SinkStage {

    /** What a joined writer gives its task's checkpoints; called on the task's thread. */
    @FunctionalInterface
    interface Participant {

        /**
         * The checkpoint that ends transaction {@code transactionId} is about to be recorded (after {@link
         * SinkWriter#flush}): the bytes to keep with it, from which the writer can publish the transaction's rows.
         */
        List<byte[]> stage(String transactionId) throws Exception;
    }

    /**
     * What a writer staged with the checkpoint its task restored.
     *
     * @param transactionId     the transaction the chunks belong to
     * @param chunks            what {@link Participant#stage} returned for it
     * @param committedAtMillis when the checkpoint was recorded, by the clock of the broker that holds the task's
     *                          state
     * @param millisSinceCommit how long ago, at the restore, the checkpoint was recorded: the writer that staged the
     *                          rows may be publishing them still for a while, if its process lives on
     */
    record Recovered(String transactionId, List<byte[]> chunks, long committedAtMillis, long millisSinceCommit) {
    }

    /**
     * Makes {@code participant} take part in its task's checkpoints; returns what it staged with the checkpoint the
     * task restored, or null if nothing. Call once per writer.
     */
    Recovered join(Participant participant);

    /** Asks the task for a checkpoint soon, ahead of the job's interval: the writer holds many rows. */
    void requestCheckpoint();
}
