package dev.rsql.sdk;

import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.exec.TaskStatus;

/**
 * A job's figures at one moment, read from what its runtime job publishes: records read, rows written, records
 * skipped as bad, the largest source lag. A thin view: figures the runtime adds (per operator, checkpoints) belong
 * here as further accessors over the same status.
 */
public final class JobMetrics {

    private final JobStatus status;

    JobMetrics(JobStatus status) {
        this.status = status;
    }

    /** Records read by the job's sources (in distributed mode: by this engine's part of the job). */
    public long recordsIn() {
        return status.recordsIn();
    }

    /** Rows written to the job's sinks. */
    public long rowsOut() {
        return status.rowsOut();
    }

    /** Bad records skipped (or dead-lettered) under the job's error handling. */
    public long recordsSkipped() {
        return status.tasks.stream().mapToLong(t -> t.skipped).sum();
    }

    /** The largest source lag among the running tasks (messages behind), or -1 when unknown. */
    public long maxLag() {
        return status.tasks.stream().filter(t -> t.state == TaskStatus.State.RUNNING).mapToLong(t -> t.lag)
                .max().orElse(-1);
    }

    /** Tasks of this engine's part of the job that are running. */
    public int runningTasks() {
        return (int) status.tasks.stream().filter(t -> t.state == TaskStatus.State.RUNNING).count();
    }

    /** How often the job restarted after a transient failure. */
    public int restarts() {
        return status.restarts;
    }

    /** When these figures were taken (epoch milliseconds). */
    public long updatedMillis() {
        return status.updatedMillis;
    }
}
