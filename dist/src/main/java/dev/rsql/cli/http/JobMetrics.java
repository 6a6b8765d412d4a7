package dev.rsql.cli.http;

import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.exec.TaskStatus;
import dev.rsql.runtime.metrics.CheckpointStats;
import dev.rsql.runtime.metrics.OperatorMetrics;
import dev.rsql.runtime.metrics.TaskMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The jobs of this process as Prometheus metrics, read from each job's {@link JobStatus} at scrape time (see
 * docs/metrics.md for the names). A task that ended and came back (its queue revoked and assigned again) is one
 * series: its counters summed over its runs, its gauges those of the latest run.
 */
final class JobMetrics implements MultiCollector {

    private static final double NANOS = 1e9;
    private static final double MILLIS = 1e3;

    private final ProcessJobs jobs;

    JobMetrics(ProcessJobs jobs) {
        this.jobs = jobs;
    }

    /** One task's runs, latest last. */
    private record TaskRuns(String job, List<TaskStatus> runs) {
        TaskStatus latest() {
            return runs.get(runs.size() - 1);
        }

        TaskMetrics.Snapshot metrics() {
            return latest().metrics;
        }

        Labels labels() {
            TaskStatus t = latest();
            return Labels.of("job", job, "task", t.id, "queue", t.shard);
        }

        double sum(ToDoubleFunction<TaskStatus> f) {
            return runs.stream().mapToDouble(f).sum();
        }
    }

    @Override
    public MetricSnapshots collect() {
        long now = System.currentTimeMillis();
        Families f = new Families();
        for (Map.Entry<String, Job> e : jobs.list()) {
            JobStatus s = e.getValue().status();
            String job = e.getKey();
            Labels jobLabels = Labels.of("job", job);
            f.gauge("rsql_job_running", "1 while the job runs (not restarting, stopping or ended)", jobLabels,
                    s.state == JobInstance.State.RUNNING ? 1 : 0);
            f.counter("rsql_job_restarts", "Restarts after a transient failure", jobLabels, s.restarts);
            job(f, jobLabels, s.checkpoints, now);
            Map<String, TaskRuns> tasks = new LinkedHashMap<>();
            for (TaskStatus t : s.tasks) {
                tasks.computeIfAbsent(t.id, id -> new TaskRuns(job, new ArrayList<>())).runs().add(t);
            }
            long restoreNanos = -1;
            double sourceRecords = 0;
            for (TaskRuns t : tasks.values()) {
                task(f, t, now);
                restoreNanos = Math.max(restoreNanos, t.metrics().restoreNanos());
                if (t.metrics().operators().stream().anyMatch(o -> o.kind().equals("Source"))) {
                    sourceRecords += t.sum(r -> r.recordsIn);
                }
            }
            f.counter("rsql_job_records_in", "Records the job's source tasks read (rows behind an exchange are not"
                    + " counted again)", jobLabels, sourceRecords);
            f.counter("rsql_job_sink_rows", "Rows the job's sinks wrote", jobLabels,
                    tasks.values().stream().mapToDouble(t -> t.sum(r -> r.rowsOut)).sum());
            if (restoreNanos >= 0) {
                f.gauge("rsql_job_restore_duration_seconds", "Longest time a task took to restore its state from"
                        + " the checkpoint the job started from", jobLabels, restoreNanos / NANOS);
            }
        }
        return f.build();
    }

    private static void job(Families f, Labels labels, CheckpointStats c, long now) {
        f.counter("rsql_job_checkpoints", "Checkpoints of the job, by result", labels.add("result", "completed"),
                c.completed());
        f.counter("rsql_job_checkpoints", "Checkpoints of the job, by result", labels.add("result", "aborted"),
                c.aborted());
        if (c.lastCompletedMillis() > 0) {
            f.gauge("rsql_job_checkpoint_duration_seconds", "Last completed checkpoint: from trigger to complete",
                    labels, c.lastDurationMillis() / MILLIS);
            f.gauge("rsql_job_checkpoint_age_seconds", "Time since the last checkpoint completed", labels,
                    Math.max(0, now - c.lastCompletedMillis()) / MILLIS);
            f.gauge("rsql_job_last_checkpoint_id", "Id of the last completed checkpoint", labels, c.lastId());
        }
        if (c.lastSizeBytes() >= 0) {
            f.gauge("rsql_job_checkpoint_size_bytes", "Size on disk of the last completed checkpoint", labels,
                    c.lastSizeBytes());
        }
        if (c.stateSizeBytes() >= 0) {
            f.gauge("rsql_job_state_size_bytes", "The job's local state on disk (working copies and retained"
                    + " checkpoints, each file once), measured at the last checkpoint", labels, c.stateSizeBytes());
        }
    }

    private static void task(Families f, TaskRuns t, long now) {
        Labels labels = t.labels();
        TaskStatus latest = t.latest();
        TaskMetrics.Snapshot m = t.metrics();
        f.gauge("rsql_task_running", "1 while the task runs (also when stuck), 0 once it ended", labels,
                latest.state == TaskStatus.State.RUNNING || latest.state == TaskStatus.State.STUCK ? 1 : 0);
        f.counter("rsql_task_records_in", "Records the task read from its queue or partition", labels,
                t.sum(s -> s.recordsIn));
        f.counter("rsql_task_records_out", "Rows the task handed to sinks and exchanges", labels,
                t.sum(s -> s.metrics.recordsOut()));
        f.counter("rsql_task_sink_rows", "Rows the task's sinks wrote", labels, t.sum(s -> s.rowsOut));
        f.counter("rsql_task_records_dropped", "Bad records skipped (error policy skip)", labels,
                t.sum(s -> s.skipped));
        f.counter("rsql_task_records_dead_lettered", "Skipped records written to the dead-letter table", labels,
                t.sum(s -> s.deadLettered));
        f.counter("rsql_task_late_records", "Rows that came behind the watermark (windows, OVER, interval and"
                + " window joins)", labels, t.sum(s -> s.metrics.lateRecords()));
        f.counter("rsql_task_busy_seconds", "Time the task spent processing (not waiting for input); its rate is"
                + " the share of wall time it is busy", labels, t.sum(s -> s.metrics.busyNanos() / NANOS));
        f.counter("rsql_task_checkpoints", "Checkpoints the task took part in", labels,
                t.sum(s -> s.metrics.checkpoints()));
        if (m.hasWatermark()) {
            f.gauge("rsql_task_watermark_seconds", "The task's watermark (event time, seconds since the epoch)",
                    labels, m.watermark() / MILLIS);
            f.gauge("rsql_task_watermark_lag_seconds", "How far the watermark is behind wall-clock time", labels,
                    (now - m.watermark()) / MILLIS);
        }
        if (latest.lag >= 0) {
            f.gauge("rsql_task_source_lag_records", "Records in the task's queue not read yet", labels, latest.lag);
        }
        if (m.lastCheckpointNanos() >= 0) {
            f.gauge("rsql_task_checkpoint_duration_seconds", "The task's part of its last checkpoint (flush, barrier,"
                    + " state snapshot)", labels, m.lastCheckpointNanos() / NANOS);
        }
        if (latest.lastCheckpointMillis > 0) {
            f.gauge("rsql_task_checkpoint_age_seconds", "Time since the task's last checkpoint", labels,
                    Math.max(0, now - latest.lastCheckpointMillis) / MILLIS);
        }
        if (m.restoreNanos() >= 0) {
            f.gauge("rsql_task_restore_duration_seconds", "Time the task took to restore its state", labels,
                    m.restoreNanos() / NANOS);
        }
        Map<String, long[]> operators = new LinkedHashMap<>();   // in, out, late over the task's runs
        Map<String, String> kinds = new LinkedHashMap<>();
        for (TaskStatus run : t.runs()) {
            for (OperatorMetrics.Snapshot o : run.metrics.operators()) {
                long[] sums = operators.computeIfAbsent(o.operator(), k -> new long[3]);
                sums[0] += o.recordsIn();
                sums[1] += o.recordsOut();
                sums[2] += o.lateRecords();
                kinds.put(o.operator(), o.kind());
            }
        }
        operators.forEach((id, sums) -> {
            Labels ol = Labels.of("job", t.job(), "task", latest.id, "operator", id, "kind", kinds.get(id));
            f.counter("rsql_operator_records_in", "Rows into the operator", ol, sums[0]);
            f.counter("rsql_operator_records_out", "Rows the operator emitted", ol, sums[1]);
            f.counter("rsql_operator_late_records", "Rows the operator found behind the watermark", ol, sums[2]);
        });
    }

    /** Data points gathered by metric name, each family built once at the end. */
    private static final class Families {
        private final Map<String, CounterSnapshot.Builder> counters = new LinkedHashMap<>();
        private final Map<String, GaugeSnapshot.Builder> gauges = new LinkedHashMap<>();

        void counter(String name, String help, Labels labels, double value) {
            counters.computeIfAbsent(name, n -> CounterSnapshot.builder().name(n).help(help))
                    .dataPoint(CounterDataPointSnapshot.builder().labels(labels).value(value).build());
        }

        void gauge(String name, String help, Labels labels, double value) {
            gauges.computeIfAbsent(name, n -> GaugeSnapshot.builder().name(n).help(help))
                    .dataPoint(GaugeDataPointSnapshot.builder().labels(labels).value(value).build());
        }

        MetricSnapshots build() {
            List<MetricSnapshot> all = new ArrayList<>();
            counters.values().forEach(b -> all.add(b.build()));
            gauges.values().forEach(b -> all.add(b.build()));
            return new MetricSnapshots(all);
        }
    }
}
