package dev.rsql.runtime.connector;

/** The task a sink writer belongs to. */
public interface SinkWriterContext {

    /** Identifies the writing task, e.g. {@code orders@broker-a#3}; stable across restarts. */
    String taskId();

    /** Index of the task among those of the job in this process, for naming files or round-robin. */
    int taskIndex();

    /**
     * The transaction the rows written now belong to; changes after each checkpoint of the task; null when the task
     * is not transactional (the job is not, or the task has no checkpoint to commit with: it writes before any
     * exchange). Known when the writer is created; writers read it on every write.
     */
    default String transactionId() {
        return null;
    }

    /**
     * Where a writer of table {@code table} can keep rows with the task's checkpoints ({@link SinkStage}); null when
     * the task's checkpoints cannot keep them (the task is not transactional). Each writer of a task asks once.
     */
    default SinkStage sinkStage(String table) {
        return null;
    }
}
