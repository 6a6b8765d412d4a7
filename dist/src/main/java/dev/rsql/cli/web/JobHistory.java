package dev.rsql.cli.web;

import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.exec.TaskStatus;
import dev.rsql.runtime.graph.JobGraph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The last minutes of one job as the status page charts them: a ring buffer of samples (throughput in and out per
 * second, lag), the checkpoints seen, and recent events (failure, restarts, task errors, skipped records, stuck tasks)
 * found by comparing each status with the one before. Fed by one sampling thread; read by the HTTP threads.
 */
final class JobHistory {

    static final int MAX_EVENTS = 50;
    static final int MAX_CHECKPOINTS = 20;

    /** One recent event; {@code task} is null for the job's own. */
    record Event(long millis, String kind, String task, String message) {
    }

    /** A copy of the history, oldest sample first. */
    record Snapshot(long intervalMillis, long windowMillis, long[] times, double[] inPerSecond, double[] outPerSecond, long[] lag,
                    List<Long> checkpoints, List<Event> events) {
    }

    private final long intervalMillis;
    private final long[] times;
    private final double[] inRate;
    private final double[] outRate;
    private final long[] lag;
    private int next;
    private int size;
    private final Deque<Long> checkpoints = new ArrayDeque<>();
    private long checkpointsCovered;
    private final Deque<Event> events = new ArrayDeque<>();

    private JobGraph graph;
    private TaskNodes taskNodes;
    private JobStatus previous;
    private final Map<String, TaskStatus> previousTasks = new HashMap<>();

    JobHistory(long intervalMillis, int capacity) {
        this.intervalMillis = intervalMillis;
        this.times = new long[capacity];
        this.inRate = new double[capacity];
        this.outRate = new double[capacity];
        this.lag = new long[capacity];
    }

    /** @param jobGraph the graph of the job sampled: another one means a new version of the job runs under the name */
    synchronized void sample(JobGraph jobGraph, JobStatus status, long now) {
        if (graph != jobGraph) {
            if (graph != null) {
                // server mode replaced the job under this name: its counters start again
                event(now, "replaced", null, "a new version of the job started");
                previous = null;
                previousTasks.clear();
            }
            graph = jobGraph;
            taskNodes = new TaskNodes(jobGraph);
        }
        if (previous != null) {
            double seconds = Math.max(1, status.updatedMillis - previous.updatedMillis) / 1000.0;
            times[next] = now;
            inRate[next] = increase(taskNodes.recordsRead(previous), taskNodes.recordsRead(status)) / seconds;
            outRate[next] = increase(previous.rowsOut(), status.rowsOut()) / seconds;
            lag[next] = lagOf(status);
            next = (next + 1) % times.length;
            size = Math.min(size + 1, times.length);
        }
        findEvents(status, now);
        previous = status;
    }

    /** How much a counter rose; a restart starts counters again from 0, so a lower value is all new. */
    private static long increase(long before, long after) {
        return after >= before ? after - before : after;
    }

    /** The records not yet read by the running tasks that know it, or -1 when none does. */
    static long lagOf(JobStatus status) {
        long sum = -1;
        for (TaskStatus t : status.tasks) {
            if (t.lag >= 0 && (t.state == TaskStatus.State.RUNNING || t.state == TaskStatus.State.STUCK)) {
                sum = Math.max(sum, 0) + t.lag;
            }
        }
        return sum;
    }

    /**
     * When the job's running tasks last all took a checkpoint (each task stamps its own part): the last checkpoint
     * that covers the whole job, or 0 before the first.
     */
    static long lastCheckpoint(JobStatus status) {
        long last = Long.MAX_VALUE;
        for (TaskStatus t : status.tasks) {
            if (t.state == TaskStatus.State.RUNNING || t.state == TaskStatus.State.STUCK) {
                last = Math.min(last, t.lastCheckpointMillis);
            }
        }
        return last == Long.MAX_VALUE ? 0 : last;
    }

    private void findEvents(JobStatus status, long now) {
        Set<String> ids = new HashSet<>();
        for (TaskStatus t : status.tasks) {
            ids.add(t.id);
            TaskStatus before = previousTasks.put(t.id, t);
            if (t.error != null && (before == null || !t.error.equals(before.error))) {
                event(now, "task-error", t.id, t.error);
            }
            long skipped = t.skipped - (before == null ? 0 : before.skipped);
            if (skipped > 0) {
                event(now, "skipped", t.id, skipped + (skipped == 1 ? " record" : " records")
                        + " skipped by the error policy (logged with their position, in the dead-letter table if any)");
            }
            if (t.stuck != null && (before == null || before.stuck == null)) {
                event(now, "stuck", t.id, "stuck in one record"
                        + (t.stuck.function == null ? "" : ", in function " + t.stuck.function)
                        + ", at " + t.stuck.position);
            }
        }
        previousTasks.keySet().retainAll(ids);   // queues move away in distributed mode
        // the job's own events last: above its tasks' in the newest-first list
        if (status.error != null && (previous == null || !status.error.equals(previous.error))) {
            event(now, "failure", null, status.error);
        }
        if (previous != null && status.restarts > previous.restarts) {
            event(now, "restart", null, "restart " + status.restarts
                    + (status.restartCause == null ? "" : " after: " + status.restartCause));
        }
        // Tasks stamp their parts of one checkpoint at slightly different times: a checkpoint is new once every task
        // has passed all the stamps seen when the last one was recorded (one straddling a sample may go unseen).
        long lastCheckpoint = lastCheckpoint(status);
        if (lastCheckpoint > checkpointsCovered) {
            checkpoints.addLast(lastCheckpoint);
            if (checkpoints.size() > MAX_CHECKPOINTS) {
                checkpoints.removeFirst();
            }
            checkpointsCovered = status.tasks.stream().mapToLong(t -> t.lastCheckpointMillis).max().orElse(0);
        }
    }

    private void event(long now, String kind, String task, String message) {
        events.addFirst(new Event(now, kind, task, message));
        if (events.size() > MAX_EVENTS) {
            events.removeLast();
        }
    }

    synchronized Snapshot snapshot() {
        long[] t = new long[size];
        double[] in = new double[size];
        double[] out = new double[size];
        long[] l = new long[size];
        int first = (next - size + times.length) % times.length;
        for (int i = 0; i < size; i++) {
            int at = (first + i) % times.length;
            t[i] = times[at];
            in[i] = inRate[at];
            out[i] = outRate[at];
            l[i] = lag[at];
        }
        return new Snapshot(intervalMillis, intervalMillis * times.length, t, in, out, l, new ArrayList<>(checkpoints), new ArrayList<>(events));
    }
}
