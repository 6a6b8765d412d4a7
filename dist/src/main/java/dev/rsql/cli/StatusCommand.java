package dev.rsql.cli;

import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Shows the jobs started from this installation: state, process, tasks, assigned shards, records in and out. */
@Command(name = "status", description = "Show jobs, their tasks, assigned queues and records in/out.")
final class StatusCommand implements Callable<Integer> {

    @ParentCommand
    private RsqlCli cli;

    @Parameters(description = "Job names (default: all with a status under run/).")
    private List<String> jobs = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        EngineHome home = cli.engineHome();
        List<Path> files = statusFiles(home);
        if (files.isEmpty()) {
            System.out.println("no jobs have run from " + home.home());
            return 0;
        }
        System.out.printf("%-30s %-10s %-8s %6s %12s %12s%n", "JOB", "STATE", "PID", "TASKS", "RECORDS IN", "ROWS OUT");
        for (Path f : files) {
            JSONObject s = StatusFile.read(f);
            String job = s.getString("job");
            if (!jobs.isEmpty() && !jobs.contains(job)) {
                continue;
            }
            long pid = s.getLongValue("pid");
            String state = s.getString("state");
            boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
            if (!alive && (state.equals("RUNNING") || state.equals("STOPPING") || state.equals("RESTARTING"))) {
                state = "DEAD";
            }
            JSONArray tasks = s.getJSONArray("tasks");
            System.out.printf("%-30s %-10s %-8s %6d %12d %12d%n", job, state, alive ? String.valueOf(pid) : "-",
                    tasks.size(), s.getLongValue("recordsIn"), s.getLongValue("rowsOut"));
            System.out.printf("  instance %s, updated %s%n", s.getString("instance"),
                    java.time.Instant.ofEpochMilli(s.getLongValue("updated")));
            int restarts = s.getIntValue("restarts");
            if (state.equals("RESTARTING")) {
                System.out.printf("  RESTARTING (attempt %d, %s)%n", restarts, s.getString("restartCause"));
            } else if (restarts > 0) {
                System.out.printf("  restarted %d times, last after: %s%n", restarts, s.getString("restartCause"));
            }
            for (int i = 0; i < tasks.size(); i++) {
                JSONObject t = tasks.getJSONObject(i);
                long lag = t.getLongValue("lag");
                long checkpoint = t.getLongValue("lastCheckpoint");
                System.out.printf("  %-9s %s  in %d  out %d%s%s%s%n", t.getString("state"), t.getString("shard"),
                        t.getLongValue("recordsIn"), t.getLongValue("rowsOut"),
                        t.getLongValue("skipped") > 0 ? "  skipped " + t.getLongValue("skipped") : "",
                        lag >= 0 ? "  lag " + lag : "",
                        checkpoint > 0 ? "  checkpoint " + java.time.Instant.ofEpochMilli(checkpoint) : "");
                JSONObject stuck = t.getJSONObject("stuck");
                if (stuck != null) {
                    String function = stuck.getString("function");
                    System.out.printf("            stuck since %s %sat %s%n",
                            java.time.Instant.ofEpochMilli(stuck.getLongValue("since")),
                            function == null ? "" : "in function " + function + " ", stuck.getString("position"));
                }
            }
            if (s.getString("error") != null) {
                System.out.println("  error: " + s.getString("error"));
            }
        }
        return 0;
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
