package dev.rsql.sdk;

import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.exec.TaskStatus;
import dev.rsql.runtime.metrics.OperatorMetrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's figures at one moment, read from what its runtime job publishes: records read, rows written, records
 * skipped as bad, late rows, the largest source lag, checkpoints, and rows per operator — the figures
 * {@code /metrics} exposes (docs/metrics.md).
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

    /** Bad records written to the dead-letter table (a part of {@link #recordsSkipped}). */
    public long recordsDeadLettered() {
        return status.tasks.stream().mapToLong(t -> t.deadLettered).sum();
    }

    /** Rows that came behind the watermark (windows, OVER, interval joins, window TopN). */
    public long lateRecords() {
        return status.tasks.stream().mapToLong(t -> t.metrics.lateRecords()).sum();
    }

    /** Checkpoints the job completed (local mode; a distributed job checkpoints per task: 0). */
    public long checkpointsCompleted() {
        return status.checkpoints.completed();
    }

    /** How long the last completed checkpoint took, or -1. */
    public long lastCheckpointDurationMillis() {
        return status.checkpoints.lastDurationMillis();
    }

    /** The size of the last completed checkpoint on disk, or -1. */
    public long lastCheckpointSizeBytes() {
        return status.checkpoints.lastSizeBytes();
    }

    /** The job's local state on disk, or -1 when not measured yet. */
    public long stateSizeBytes() {
        return status.checkpoints.stateSizeBytes();
    }

    /** Rows in and out of each operator, summed over this engine's tasks, in graph order. */
    public List<OperatorFigures> operators() {
        Map<String, OperatorFigures> byId = new LinkedHashMap<>();
        for (TaskStatus t : status.tasks) {
            for (OperatorMetrics.Snapshot o : t.metrics.operators()) {
                byId.merge(o.operator(), new OperatorFigures(o.operator(), o.kind(), o.recordsIn(), o.recordsOut(),
                        o.lateRecords()), (a, b) -> new OperatorFigures(a.operator(), a.kind(),
                        a.recordsIn() + b.recordsIn(), a.recordsOut() + b.recordsOut(),
                        a.lateRecords() + b.lateRecords()));
            }
        }
        return new ArrayList<>(byId.values());
    }
}
