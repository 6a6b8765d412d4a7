package dev.rsql.cli;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.exec.TaskStatus;
import dev.rsql.runtime.lookup.DimensionTableStatus;
import dev.rsql.runtime.metrics.CheckpointStats;
import dev.rsql.runtime.metrics.OperatorMetrics;
import dev.rsql.runtime.metrics.TaskMetrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/** A running job's status as JSON in run/, written by the job's process and read by {@code rsql status}. */
public final class StatusFile {

    private StatusFile() {
    }

    /** @param stopTimeoutMillis how long the process may take to stop ({@code bin/stop.sh} waits that long and more) */
    public static void write(Path file, JobStatus status, long pid, long stopTimeoutMillis) throws IOException {
        write(file, json(status, pid, stopTimeoutMillis));
    }

    /** Replaces the file with {@code status} (as {@link #json} makes it) at once: a reader sees the old or the new. */
    public static synchronized void write(Path file, JSONObject status) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, status.toJSONString(), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** What the status file of a job holds. */
    public static JSONObject json(JobStatus status, long pid, long stopTimeoutMillis) {
        JSONObject o = new JSONObject();
        o.put("job", status.job);
        o.put("instance", status.instance);
        o.put("pid", pid);
        o.put("state", status.state.name());
        o.put("started", status.startedMillis);
        o.put("updated", status.updatedMillis);
        o.put("recordsIn", status.recordsIn());
        o.put("rowsOut", status.rowsOut());
        o.put("error", status.error);
        o.put("restarts", status.restarts);
        o.put("restartCause", status.restartCause);
        o.put("stopTimeout", stopTimeoutMillis);
        o.put("recordsOut", status.tasks.stream().mapToLong(t -> t.metrics.recordsOut()).sum());
        o.put("skipped", status.tasks.stream().mapToLong(t -> t.skipped).sum());
        o.put("deadLettered", status.tasks.stream().mapToLong(t -> t.deadLettered).sum());
        o.put("lateRecords", status.tasks.stream().mapToLong(t -> t.metrics.lateRecords()).sum());
        o.put("checkpoints", checkpoints(status.checkpoints));
        JSONArray tasks = new JSONArray();
        for (TaskStatus t : status.tasks) {
            JSONObject to = task(t);
            to.put("deadLettered", t.deadLettered);
            metrics(to, t.metrics, status.updatedMillis);
            tasks.add(to);
        }
        o.put("tasks", tasks);
        o.put("dimensionTables", dimensionTables(status.dimensionTables));
        return o;
    }

    /** A task's state and counts, as {@code status --json} and the status page show them. */
    public static JSONObject task(TaskStatus t) {
        JSONObject to = new JSONObject();
        to.put("id", t.id);
        to.put("shard", t.shard);
        to.put("state", t.state.name());
        to.put("recordsIn", t.recordsIn);
        to.put("rowsOut", t.rowsOut);
        to.put("skipped", t.skipped);
        to.put("lag", t.lag);
        to.put("lastCheckpoint", t.lastCheckpointMillis);
        to.put("error", t.error);
        if (t.stuck != null) {
            JSONObject stuck = new JSONObject();
            stuck.put("since", t.stuck.sinceMillis);
            stuck.put("position", t.stuck.position);
            stuck.put("function", t.stuck.function);
            to.put("stuck", stuck);
        }
        return to;
    }

    /** A job's fully cached dimension tables, loaded or loading, as {@code status --json} and the status page show. */
    public static JSONArray dimensionTables(List<DimensionTableStatus> tables) {
        JSONArray dims = new JSONArray();
        for (DimensionTableStatus d : tables) {
            JSONObject dj = new JSONObject();
            dj.put("table", d.table());
            dj.put("rows", d.rows());
            dj.put("bytes", d.bytes());
            dj.put("loads", d.loads());
            dj.put("loadingRows", d.loadingRows());
            dj.put("loaded", d.loadedMillis());
            dj.put("loadMillis", d.loadMillis());
            dj.put("lastError", d.lastError());
            dims.add(dj);
        }
        return dims;
    }

    /** A job's checkpoint figures (see docs/metrics.md), as {@code status --json} and the status page show them. */
    public static JSONObject checkpoints(CheckpointStats c) {
        JSONObject o = new JSONObject();
        o.put("completed", c.completed());
        o.put("aborted", c.aborted());
        o.put("lastId", c.lastId());
        o.put("lastDurationMillis", c.lastDurationMillis());
        o.put("lastSizeBytes", c.lastSizeBytes());
        o.put("lastCompleted", c.lastCompletedMillis());
        o.put("stateSizeBytes", c.stateSizeBytes());
        return o;
    }

    /** A task's metrics (see docs/metrics.md); the watermark's lag is measured against {@code now}. */
    private static void metrics(JSONObject to, TaskMetrics.Snapshot m, long now) {
        to.put("recordsOut", m.recordsOut());
        to.put("lateRecords", m.lateRecords());
        to.put("busyMillis", m.busyNanos() / 1_000_000);
        to.put("busyRatio", Math.round(m.busyRatio() * 1000) / 1000.0);
        if (m.hasWatermark()) {
            to.put("watermark", m.watermark());
            to.put("watermarkLagMillis", now - m.watermark());
        }
        to.put("checkpoints", m.checkpoints());
        to.put("checkpointMillis", m.lastCheckpointNanos() < 0 ? -1 : m.lastCheckpointNanos() / 1_000_000);
        to.put("restoreMillis", m.restoreNanos() < 0 ? -1 : m.restoreNanos() / 1_000_000);
        JSONArray ops = new JSONArray();
        for (OperatorMetrics.Snapshot op : m.operators()) {
            JSONObject oo = new JSONObject();
            oo.put("id", op.operator());
            oo.put("kind", op.kind());
            oo.put("recordsIn", op.recordsIn());
            oo.put("recordsOut", op.recordsOut());
            oo.put("lateRecords", op.lateRecords());
            ops.add(oo);
        }
        to.put("operators", ops);
    }

    public static JSONObject read(Path file) throws IOException {
        return JSON.parseObject(Files.readString(file, StandardCharsets.UTF_8));
    }
}
