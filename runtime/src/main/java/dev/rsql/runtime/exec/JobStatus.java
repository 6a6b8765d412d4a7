package dev.rsql.runtime.exec;

import dev.rsql.runtime.lookup.DimensionTableStatus;
import dev.rsql.runtime.metrics.CheckpointStats;

import java.util.List;

/** What {@code status} shows for one running job instance. */
public final class JobStatus {

    public final String job;
    public final String instance;
    public final JobInstance.State state;
    public final long startedMillis;
    public final long updatedMillis;
    public final List<TaskStatus> tasks;
    public final String error;
    /** How often the job restarted after a transient failure (while {@code RESTARTING}: the restart waited for). */
    public final int restarts;
    /** Why the job last restarted, or null. */
    public final String restartCause;
    /** The job's fully cached dimension tables, loaded or loading. */
    public final List<DimensionTableStatus> dimensionTables;
    /** The job's checkpoints as coordinated in this process ({@link CheckpointStats#NONE} when distributed). */
    public final CheckpointStats checkpoints;

    public JobStatus(String job, String instance, JobInstance.State state, long startedMillis, long updatedMillis,
                     List<TaskStatus> tasks, String error) {
        this(job, instance, state, startedMillis, updatedMillis, tasks, error, 0, null, List.of());
    }

    public JobStatus(String job, String instance, JobInstance.State state, long startedMillis, long updatedMillis,
                     List<TaskStatus> tasks, String error, int restarts, String restartCause,
                     List<DimensionTableStatus> dimensionTables) {
        this(job, instance, state, startedMillis, updatedMillis, tasks, error, restarts, restartCause,
                dimensionTables, CheckpointStats.NONE);
    }

    public JobStatus(String job, String instance, JobInstance.State state, long startedMillis, long updatedMillis,
                     List<TaskStatus> tasks, String error, int restarts, String restartCause,
                     List<DimensionTableStatus> dimensionTables, CheckpointStats checkpoints) {
        this.job = job;
        this.instance = instance;
        this.state = state;
        this.startedMillis = startedMillis;
        this.updatedMillis = updatedMillis;
        this.tasks = List.copyOf(tasks);
        this.error = error;
        this.restarts = restarts;
        this.restartCause = restartCause;
        this.dimensionTables = List.copyOf(dimensionTables);
        this.checkpoints = checkpoints;
    }

    public long recordsIn() {
        return tasks.stream().mapToLong(t -> t.recordsIn).sum();
    }

    public long rowsOut() {
        return tasks.stream().mapToLong(t -> t.rowsOut).sum();
    }
}
