package dev.rsql.runtime.operator;

import dev.rsql.runtime.data.Row;

/**
 * One step of a task's pipeline. An instance belongs to one task and is only called from the thread running that
 * task, so it needs no locks.
 */
public interface Operator {

    default void open(OperatorContext context) throws Exception {
    }

    void process(Row row) throws Exception;

    /** Event time advanced; fire what is due, then pass the watermark on. */
    void processWatermark(long watermark) throws Exception;

    /** Processing time reached a time the operator asked to be woken at (see {@link OperatorContext}). */
    default void onProcessingTime(long now) throws Exception {
    }

    /** Every input of the task has ended (bounded sources): emit whatever is still held. */
    default void endOfInput() throws Exception {
    }

    /** Before a checkpoint: hand everything buffered to the sinks and state, and make sure sinks stored it. */
    default void flush() throws Exception {
    }

    /** A checkpoint this task took part in is complete everywhere (sinks may commit what it covers). */
    default void notifyCheckpointComplete(long checkpointId) throws Exception {
    }

    default void close() throws Exception {
    }

    /** Rows that came too late to be processed as usual (behind the watermark, their window closed): for metrics. */
    default long lateRecords() {
        return 0;
    }
}
