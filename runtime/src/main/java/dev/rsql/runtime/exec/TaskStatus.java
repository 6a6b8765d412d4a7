package dev.rsql.runtime.exec;

import dev.rsql.runtime.metrics.TaskMetrics;

/** What {@code status} shows for one task. */
public final class TaskStatus {

    /** STUCK: running, but in one record for longer than {@code task.stuck-timeout} (see {@link #stuck}). */
    public enum State { RUNNING, STUCK, FINISHED, FAILED }

    public final String id;
    public final String shard;
    public final State state;
    public final long recordsIn;
    public final long rowsOut;
    public final long skipped;
    public final long lag;
    public final long lastCheckpointMillis;
    public final String error;
    /** Where the task is stuck, or null. */
    public final StuckRecord stuck;
    /** Of the skipped records, those written to the dead-letter table. */
    public final long deadLettered;
    /** Operators' counters, busy time, watermark, checkpoints and restore. */
    public final TaskMetrics.Snapshot metrics;

    public TaskStatus(String id, String shard, State state, long recordsIn, long rowsOut, long skipped, long lag,
                      long lastCheckpointMillis, String error, StuckRecord stuck) {
        this(id, shard, state, recordsIn, rowsOut, skipped, lag, lastCheckpointMillis, error, stuck, 0,
                TaskMetrics.NONE);
    }

    public TaskStatus(String id, String shard, State state, long recordsIn, long rowsOut, long skipped, long lag,
                      long lastCheckpointMillis, String error, StuckRecord stuck, long deadLettered,
                      TaskMetrics.Snapshot metrics) {
        this.id = id;
        this.shard = shard;
        this.state = state;
        this.recordsIn = recordsIn;
        this.rowsOut = rowsOut;
        this.skipped = skipped;
        this.lag = lag;
        this.lastCheckpointMillis = lastCheckpointMillis;
        this.error = error;
        this.stuck = stuck;
        this.deadLettered = deadLettered;
        this.metrics = metrics;
    }
}
