package dev.rsql.cli;

import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Shows the jobs started from this installation: state, process, tasks, assigned shards, records in and out. */
final class StatusCommand implements CliCommand {

    private static final CliOption JSON_OUTPUT = CliOption.flag("--json", "Print the status as a JSON array, one"
            + " object per job instance (the status file's fields; state DEAD when its process is gone).");

    @Override
    public CommandUsage usage() {
        return CommandUsage.of("status", "Show jobs, their tasks, assigned queues and records in/out.",
                List.of(JSON_OUTPUT), CliParameter.any("JOB", "Job names (default: all with a status under run/)."),
                "0:status shown (also when no job has run)",
                "2:wrong usage (unknown option, missing argument)");
    }

    @Override
    public int run(EngineHome home, CommandArgs args) throws IOException {
        List<String> jobs = args.parameters();
        List<JSONObject> statuses = new ArrayList<>();
        for (Path f : statusFiles(home)) {
            JSONObject s = StatusFile.read(f);
            if (jobs.isEmpty() || jobs.contains(s.getString("job"))) {
                s.put("state", effectiveState(s));
                statuses.add(s);
            }
        }
        if (args.has(JSON_OUTPUT)) {
            System.out.println(com.alibaba.fastjson2.JSON.toJSONString(statuses));
        } else if (statuses.isEmpty()) {
            System.out.println("no jobs have run from " + home.home());
        } else {
            printTable(statuses);
        }
        return 0;
    }

    /** A job whose process is gone while it said it was running is DEAD. */
    private static String effectiveState(JSONObject s) {
        String state = s.getString("state");
        boolean alive = ProcessHandle.of(s.getLongValue("pid")).map(ProcessHandle::isAlive).orElse(false);
        boolean live = state.equals("RUNNING") || state.equals("STOPPING") || state.equals("RESTARTING");
        return !alive && live ? "DEAD" : state;
    }

    private static void printTable(List<JSONObject> statuses) {
        String row = "%-30s %-16s %-10s %-8s %5s %12s %12s %8s  %s%n";
        System.out.printf(row, "JOB", "INSTANCE", "STATE", "PID", "TASKS", "RECORDS IN", "ROWS OUT", "LAG",
                "UPDATED");
        for (JSONObject s : statuses) {
            String state = s.getString("state");
            JSONArray tasks = s.getJSONArray("tasks");
            long lag = -1;
            for (int i = 0; i < tasks.size(); i++) {
                lag = Math.max(lag, tasks.getJSONObject(i).getLongValue("lag"));
            }
            boolean alive = !state.equals("DEAD") && ProcessHandle.of(s.getLongValue("pid")).isPresent();
            System.out.printf(row, s.getString("job"), s.getString("instance"), state,
                    alive ? String.valueOf(s.getLongValue("pid")) : "-", tasks.size(), s.getLongValue("recordsIn"),
                    s.getLongValue("rowsOut"), lag >= 0 ? String.valueOf(lag) : "-",
                    java.time.Instant.ofEpochMilli(s.getLongValue("updated")));
            int restarts = s.getIntValue("restarts");
            if (state.equals("RESTARTING")) {
                System.out.printf("  RESTARTING (attempt %d, %s)%n", restarts, s.getString("restartCause"));
            } else if (restarts > 0) {
                System.out.printf("  restarted %d times, last after: %s%n", restarts, s.getString("restartCause"));
            }
            for (int i = 0; i < tasks.size(); i++) {
                JSONObject t = tasks.getJSONObject(i);
                long taskLag = t.getLongValue("lag");
                long checkpoint = t.getLongValue("lastCheckpoint");
                System.out.printf("  %-9s %s  in %d  out %d%s%s%s%s%n", t.getString("state"), t.getString("shard"),
                        t.getLongValue("recordsIn"), t.getLongValue("rowsOut"),
                        t.getLongValue("skipped") > 0 ? "  skipped " + t.getLongValue("skipped") : "",
                        taskLag >= 0 ? "  lag " + taskLag : "",
                        checkpoint > 0 ? "  checkpoint " + java.time.Instant.ofEpochMilli(checkpoint) : "",
                        taskMetrics(t));
                JSONObject stuck = t.getJSONObject("stuck");
                if (stuck != null) {
                    String function = stuck.getString("function");
                    System.out.printf("            stuck since %s %sat %s%n",
                            java.time.Instant.ofEpochMilli(stuck.getLongValue("since")),
                            function == null ? "" : "in function " + function + " ", stuck.getString("position"));
                }
            }
            printDimensionTables(s.getJSONArray("dimensionTables"));
            if (s.getString("error") != null) {
                System.out.println("  error: " + s.getString("error"));
            }
        }
    }

    /** Busy share, late rows and the watermark's lag, where the status file has them (older ones do not). */
    private static String taskMetrics(JSONObject t) {
        StringBuilder b = new StringBuilder();
        if (t.containsKey("busyRatio")) {
            b.append(String.format("  busy %d%%", Math.round(t.getDoubleValue("busyRatio") * 100)));
        }
        if (t.getLongValue("lateRecords") > 0) {
            b.append("  late ").append(t.getLongValue("lateRecords"));
        }
        if (t.containsKey("watermarkLagMillis")) {
            b.append(String.format("  watermark lag %.1fs", t.getLongValue("watermarkLagMillis") / 1000.0));
        }
        return b.toString();
    }

    /** One line per fully cached dimension table: the copy in use, and a load under way with its rows so far. */
    private static void printDimensionTables(JSONArray dims) {
        for (int i = 0; dims != null && i < dims.size(); i++) {
            JSONObject d = dims.getJSONObject(i);
            long loading = d.getLongValue("loadingRows");
            String copy = d.getIntValue("loads") == 0 ? "not loaded yet"
                    : String.format("%d rows, %d MB, loaded %s in %d ms (load %d)", d.getLongValue("rows"),
                    d.getLongValue("bytes") >> 20, java.time.Instant.ofEpochMilli(d.getLongValue("loaded")),
                    d.getLongValue("loadMillis"), d.getIntValue("loads"));
            System.out.printf("  dimension table %s: %s%s%s%n", d.getString("table"), copy,
                    loading >= 0 ? "; loading, " + loading + " rows so far" : "",
                    d.getString("lastError") != null ? "; last reload failed: " + d.getString("lastError") : "");
        }
    }

    private static List<Path> statusFiles(EngineHome home) throws IOException {
        if (!Files.isDirectory(home.runDir())) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(home.runDir(), 3)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".status.json")).sorted().collect(Collectors.toList());
        }
    }
}
