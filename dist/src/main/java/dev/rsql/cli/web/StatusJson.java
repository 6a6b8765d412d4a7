package dev.rsql.cli.web;

import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.cli.StatusFile;
import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.exec.TaskStatus;
import dev.rsql.runtime.graph.GraphNode;
import dev.rsql.runtime.graph.JobGraph;

/**
 * What {@code /ui/api/jobs} answers: per job its status, tasks, operator graph and history. Objects with named
 * members, so more figures can be added without breaking the page; the history is columnar (one array per series,
 * aligned with {@code t}).
 */
final class StatusJson {

    private StatusJson() {
    }

    static JSONObject job(String name, Job job, JobStatus status, JobHistory.Snapshot history) {
        JSONObject o = new JSONObject();
        o.put("name", name);
        o.put("instance", status.instance);
        o.put("state", status.state.name());
        o.put("started", status.startedMillis);
        o.put("updated", status.updatedMillis);
        TaskNodes taskNodes = new TaskNodes(job.graph());
        o.put("recordsRead", taskNodes.recordsRead(status));
        o.put("recordsIn", status.recordsIn());
        o.put("rowsOut", status.rowsOut());
        o.put("skipped", status.tasks.stream().mapToLong(t -> t.skipped).sum());
        o.put("lag", JobHistory.lagOf(status));
        o.put("error", status.error);
        o.put("restarts", status.restarts);
        o.put("restartCause", status.restartCause);
        JSONArray tasks = new JSONArray();
        for (TaskStatus t : status.tasks) {
            tasks.add(task(t, taskNodes));
        }
        o.put("tasks", tasks);
        o.put("dimensionTables", StatusFile.dimensionTables(status.dimensionTables));
        o.put("checkpoints", checkpoints(status, history));
        o.put("history", history(history));
        o.put("events", events(history));
        o.put("graph", graph(job.graph()));
        return o;
    }

    private static JSONObject task(TaskStatus t, TaskNodes taskNodes) {
        JSONObject o = StatusFile.task(t);
        GraphNode node = taskNodes.of(t.id);
        o.put("node", node == null ? null : node.id());
        return o;
    }

    private static JSONObject checkpoints(JobStatus status, JobHistory.Snapshot history) {
        JSONObject o = new JSONObject();
        o.put("last", JobHistory.lastCheckpoint(status));
        o.put("recent", new JSONArray(history.checkpoints()));
        o.put("stats", StatusFile.checkpoints(status.checkpoints));
        return o;
    }

    private static JSONObject history(JobHistory.Snapshot h) {
        JSONObject o = new JSONObject();
        o.put("interval", h.intervalMillis());
        o.put("window", h.windowMillis());
        o.put("t", h.times());
        o.put("inPerSecond", h.inPerSecond());
        o.put("outPerSecond", h.outPerSecond());
        o.put("lag", h.lag());
        return o;
    }

    private static JSONArray events(JobHistory.Snapshot h) {
        JSONArray list = new JSONArray();
        for (JobHistory.Event e : h.events()) {
            JSONObject o = new JSONObject();
            o.put("t", e.millis());
            o.put("kind", e.kind());
            o.put("task", e.task());
            o.put("message", e.message());
            list.add(o);
        }
        return list;
    }

    private static JSONObject graph(JobGraph graph) {
        JSONArray nodes = new JSONArray();
        for (GraphNode n : graph.nodes()) {
            JSONObject o = new JSONObject();
            o.put("id", n.id());
            o.put("kind", n.kind());
            o.put("detail", n.describe());
            o.put("stateful", n.keepsState());
            o.put("updates", n.producesUpdates());
            JSONArray inputs = new JSONArray();
            n.inputs().forEach(in -> inputs.add(in.id()));
            o.put("inputs", inputs);
            nodes.add(o);
        }
        JSONObject o = new JSONObject();
        o.put("nodes", nodes);
        return o;
    }
}
