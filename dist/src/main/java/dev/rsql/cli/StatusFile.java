package dev.rsql.cli;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.exec.TaskStatus;
import dev.rsql.runtime.lookup.DimensionTableStatus;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** A running job's status as JSON in run/, written by the job's process and read by {@code rsql status}. */
public final class StatusFile {

    private StatusFile() {
    }

    /** @param stopTimeoutMillis how long the process may take to stop ({@code bin/stop.sh} waits that long and more) */
    public static synchronized void write(Path file, JobStatus status, long pid, long stopTimeoutMillis) throws IOException {
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
        JSONArray tasks = new JSONArray();
        for (TaskStatus t : status.tasks) {
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
            tasks.add(to);
        }
        o.put("tasks", tasks);
        JSONArray dims = new JSONArray();
        for (DimensionTableStatus d : status.dimensionTables) {
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
        o.put("dimensionTables", dims);
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, o.toJSONString(), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public static JSONObject read(Path file) throws IOException {
        return JSON.parseObject(Files.readString(file, StandardCharsets.UTF_8));
    }
}
