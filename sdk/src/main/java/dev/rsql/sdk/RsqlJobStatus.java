package dev.rsql.sdk;

import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.exec.TaskStatus;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What a job is doing now, as {@code bin/rsql status} shows it: its state, records read and rows written, its tasks
 * (one per source queue or file, and per shuffle queue in distributed mode), its error and its restarts.
 *
 * @param restartCause why the job last restarted after a transient failure, or null
 * @param error        why the job failed, or null
 */
public record RsqlJobStatus(String job, String instance, RsqlJob.State state, long startedMillis, long updatedMillis,
                            long recordsIn, long rowsOut, List<Task> tasks, String error, int restarts,
                            String restartCause) {

    /**
     * One task: its id, what it reads ({@code shard}), its state (RUNNING, STUCK, FINISHED, FAILED), records in, rows
     * out, records skipped as bad, its source lag (-1 unknown) and the time of its last checkpoint (0 none yet).
     */
    public record Task(String id, String shard, String state, long recordsIn, long rowsOut, long skipped, long lag,
                       long lastCheckpointMillis, String error) {
    }

    static RsqlJobStatus of(JobStatus s) {
        List<Task> tasks = s.tasks.stream().map(RsqlJobStatus::task).collect(Collectors.toList());
        return new RsqlJobStatus(s.job, s.instance, RsqlJob.State.of(s.state), s.startedMillis, s.updatedMillis,
                s.recordsIn(), s.rowsOut(), List.copyOf(tasks), s.error, s.restarts, s.restartCause);
    }

    private static Task task(TaskStatus t) {
        return new Task(t.id, t.shard, t.state.name(), t.recordsIn, t.rowsOut, t.skipped, t.lag,
                t.lastCheckpointMillis, t.error);
    }
}
