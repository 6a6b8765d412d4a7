package dev.rsql.runtime.metrics;

/**
 * A job's checkpoints so far: how many completed and aborted, and the last completed one's id, duration (trigger to
 * the last acknowledgement and its metadata written), size on disk and completion time; the job's state on disk
 * (working copies and retained checkpoints) as measured then. -1 where not known.
 */
public record CheckpointStats(long completed, long aborted, long lastId, long lastDurationMillis, long lastSizeBytes,
                              long lastCompletedMillis, long stateSizeBytes) {

    /** No checkpoint yet, or a job whose checkpoints are not coordinated in this process. */
    public static final CheckpointStats NONE = new CheckpointStats(0, 0, -1, -1, -1, -1, -1);

    public CheckpointStats withCompleted(long id, long durationMillis, long sizeBytes, long completedMillis,
                                     long stateBytes) {
        return new CheckpointStats(completed + 1, aborted, id, durationMillis, sizeBytes, completedMillis, stateBytes);
    }

    public CheckpointStats withAborted() {
        return new CheckpointStats(completed, aborted + 1, lastId, lastDurationMillis, lastSizeBytes,
                lastCompletedMillis, stateSizeBytes);
    }
}
