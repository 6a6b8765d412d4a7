package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The instances of one distributed job, each a child JVM running {@code rsql run <script> --instance <id>} with the
 * test class path, as {@code bin/start.sh job --instance id} would start it. An instance can be killed
 * ({@code kill -9}: no shutdown hook, no last checkpoint), stopped gracefully (SIGTERM: the CLI's shutdown hook stops
 * the job, which checkpoints and hands its queues over) and started again with the same id. Every start writes its
 * own log file ({@code <id>-<n>.log}), kept under {@code logDir} after the test; {@link #close()} kills whatever is
 * still running.
 */
final class JobInstances implements AutoCloseable {

    /** Exit status of a JVM ended by SIGKILL / by SIGTERM (the shutdown hook ran). */
    static final int KILLED = 128 + 9;
    static final int TERMINATED = 128 + 15;

    private final Path workDir;
    private final Path logDir;
    private final Path script;
    private final String jobName;
    private final Map<String, String> settings;
    /** A job that is not distributed runs as one process without {@code --instance}, as {@code bin/start.sh job}. */
    private final boolean distributed;
    private final Map<String, Instance> current = new LinkedHashMap<>();
    private final List<Instance> all = new ArrayList<>();
    private final Set<String> shuffleTasks = new TreeSet<>();

    /** One start of an instance: its process and log. */
    static final class Instance {
        final String id;
        final int start;
        final Process process;
        final Path log;
        final long startedNanos = System.nanoTime();
        /** Why the process ended, when the test ended it; null while it runs or if it ended on its own. */
        String endedBy;

        Instance(String id, int start, Process process, Path log) {
            this.id = id;
            this.start = start;
            this.process = process;
            this.log = log;
        }

        String name() {
            return id + "-" + start;
        }
    }

    /**
     * @param script   the job's script; the job is named after the file ({@code x.sql}: job {@code x})
     * @param settings {@code -D} settings of every instance, e.g. the name server and {@code execution.mode}
     */
    JobInstances(Path workDir, Path logDir, Path script, Map<String, String> settings) throws IOException {
        this.workDir = workDir;
        this.logDir = logDir;
        this.script = script;
        String file = script.getFileName().toString();
        this.jobName = file.endsWith(".sql") ? file.substring(0, file.length() - 4) : file;
        this.settings = new LinkedHashMap<>(settings);
        this.distributed = "distributed".equalsIgnoreCase(settings.get("execution.mode"));
        Files.createDirectories(logDir);
    }

    String jobName() {
        return jobName;
    }

    Path logDir() {
        return logDir;
    }

    /**
     * Starts the instance {@code id} (again, if it ran before: the same id, a new process). A job that is not
     * distributed has one instance; its id only names the process here.
     */
    synchronized Instance start(String id) throws IOException {
        Instance running = current.get(id);
        if (running != null && running.process.isAlive()) {
            throw new IllegalStateException("instance " + id + " is running already");
        }
        int n = (int) all.stream().filter(i -> i.id.equals(id)).count() + 1;
        Path log = logDir.resolve(id + "-" + n + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // C1 only, like the test JVM (see surefire.argLine in the root pom): less CPU for these short-lived processes.
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dlogback.configurationFile=" + resource("instance-logback.xml"),
                "-Drmq.logback.configurationFile=rmq.logback.xml",
                "-Drsql.rocketmq.log.dir=" + logDir.resolve("rocketmq-" + id + "-" + n),
                "-Drocketmq.serialize.type=ROCKETMQ",   // binary request headers, as bin/common.sh starts jobs
                // RocksJava copies its 15 MB library into the temporary directory; a killed instance leaves the copy
                "-Djava.io.tmpdir=" + workDir,
                "-cp", System.getProperty("java.class.path"),
                "dev.rsql.cli.RsqlCli", "--home", workDir.resolve("home").toString(),
                "run", script.toString()));
        settings.forEach((k, v) -> {
            cmd.add("-D");
            cmd.add(k + "=" + v);
        });
        cmd.add("-D");
        cmd.add("state.dir=" + workDir.resolve("state-" + id));
        if (distributed) {
            cmd.add("--instance");
            cmd.add(id);
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Instance instance = new Instance(id, n, p, log);
        current.put(id, instance);
        all.add(instance);
        return instance;
    }

    /** SIGKILL: the process ends at once, in whatever it was doing. */
    synchronized Instance kill(String id) throws InterruptedException {
        Instance i = running(id);
        i.endedBy = "kill -9";
        i.process.destroyForcibly();
        if (!i.process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("instance " + i.name() + " did not go away after SIGKILL");
        }
        if (i.process.exitValue() != KILLED) {
            throw new AssertionError("instance " + i.name() + " had exited with " + i.process.exitValue()
                    + " before it was killed");
        }
        return i;
    }

    /**
     * SIGTERM: the CLI's shutdown hook stops the job gracefully (tasks checkpoint, queues are handed over); waits
     * until the process has exited.
     */
    synchronized Instance stop(String id, long timeoutSeconds) throws InterruptedException {
        Instance i = running(id);
        i.endedBy = "SIGTERM";
        i.process.destroy();
        if (!i.process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            throw new AssertionError("instance " + i.name() + " did not stop within " + timeoutSeconds
                    + " s of SIGTERM");
        }
        if (i.process.exitValue() != TERMINATED && i.process.exitValue() != 0) {
            throw new AssertionError("instance " + i.name() + " stopped with exit status " + i.process.exitValue()
                    + " after SIGTERM");
        }
        return i;
    }

    private Instance running(String id) {
        Instance i = current.get(id);
        if (i == null || !i.process.isAlive()) {
            throw new IllegalStateException("instance " + id + " is not running"
                    + (i == null ? "" : " (exit status " + i.process.exitValue() + ")"));
        }
        return i;
    }

    synchronized boolean isRunning(String id) {
        Instance i = current.get(id);
        return i != null && i.process.isAlive();
    }

    /** The ids of the instances whose current process runs. */
    synchronized List<String> runningIds() {
        return current.values().stream().filter(i -> i.process.isAlive()).map(i -> i.id)
                .collect(Collectors.toList());
    }

    synchronized List<Instance> starts() {
        return new ArrayList<>(all);
    }

    /** Fails if a process the test did not end has exited (the job failed, or could not start). */
    synchronized void checkAlive() {
        for (Instance i : current.values()) {
            if (i.endedBy == null && !i.process.isAlive()) {
                throw new AssertionError("instance " + i.name() + " exited on its own with status "
                        + i.process.exitValue() + "; its log: " + i.log + "\n" + tail(i.log, 40));
            }
        }
    }

    /**
     * The status file the instance's current process writes every 2 s ({@code run/<job>@<id>.status.json}), or
     * null if that process has not written one yet.
     */
    synchronized JSONObject status(String id) {
        Instance i = current.get(id);
        Path file = workDir.resolve("home").resolve("run").resolve(jobName + (distributed ? "@" + id : "")
                + ".status.json");
        if (i == null || !Files.isRegularFile(file)) {
            return null;
        }
        try {
            JSONObject o = JSON.parseObject(Files.readString(file, StandardCharsets.UTF_8));
            return o != null && o.getLongValue("pid") == i.process.pid() ? o : null;
        } catch (IOException | RuntimeException e) {
            return null; // replaced while reading: ask again
        }
    }

    /** The ids of the running tasks in the instance's status whose id starts with {@code prefix}. */
    Set<String> runningTasks(String id, String prefix) {
        JSONObject status = status(id);
        Set<String> ids = new TreeSet<>();
        if (status == null || !"RUNNING".equals(status.getString("state"))) {
            return ids;
        }
        JSONArray tasks = status.getJSONArray("tasks");
        for (int k = 0; k < tasks.size(); k++) {
            JSONObject t = tasks.getJSONObject(k);
            if ("RUNNING".equals(t.getString("state")) && t.getString("id").startsWith(prefix)) {
                ids.add(t.getString("id"));
            }
        }
        return ids;
    }

    /** How many lines of the logs of every start so far contain {@code text}. */
    synchronized long countLogLines(String text) {
        long n = 0;
        for (Instance i : all) {
            try (var lines = Files.lines(i.log, StandardCharsets.UTF_8)) {
                n += lines.filter(l -> l.contains(text)).count();
            } catch (IOException | UncheckedIOException e) {
                // a log that is not readable (yet) counts nothing
            }
        }
        return n;
    }

    /**
     * The shuffle tasks ({@code exchange-<id>#<queue>}) that no running instance's status shows running: shuffle
     * queues nobody reads. The exchange ids are learnt from the statuses (they come from the plan); each exchange has
     * {@code queues} queues.
     */
    Set<String> unownedShuffleTasks(int queues) {
        Set<String> running = new TreeSet<>();
        for (String id : runningIds()) {
            running.addAll(runningTasks(id, "exchange"));
        }
        synchronized (this) {
            for (String task : running) {
                String exchange = task.substring(0, task.indexOf('#'));
                for (int q = 0; q < queues; q++) {
                    shuffleTasks.add(exchange + "#" + q);
                }
            }
            Set<String> missing = new TreeSet<>(shuffleTasks);
            missing.removeAll(running);
            return missing;
        }
    }

    /** The starts ({@code id-n}) whose log contains {@code text}. */
    synchronized List<String> loggedBy(String text) {
        List<String> names = new ArrayList<>();
        for (Instance i : all) {
            try (var lines = Files.lines(i.log, StandardCharsets.UTF_8)) {
                if (lines.anyMatch(l -> l.contains(text))) {
                    names.add(i.name());
                }
            } catch (IOException | UncheckedIOException e) {
                // not readable: not counted
            }
        }
        return names;
    }

    /** Prints where the logs are and the end of each (the whole of each stays in {@link #logDir()}). */
    synchronized void printLogs(int lastLines) {
        System.out.println("==== logs of " + jobName + " instances in " + logDir);
        for (Instance i : all) {
            String how = i.process.isAlive() ? "running" : "exit status " + i.process.exitValue()
                    + (i.endedBy == null ? "" : " (" + i.endedBy + ")");
            System.out.println("==== " + i.log.getFileName() + ", " + how + ", last " + lastLines + " lines ====");
            System.out.println(tail(i.log, lastLines));
        }
    }

    private static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    private static String resource(String name) {
        URL url = JobInstances.class.getClassLoader().getResource(name);
        if (url == null) {
            throw new IllegalStateException("no test resource " + name);
        }
        try {
            return Path.of(url.toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Kills every process still running (SIGKILL) and waits until they are gone. */
    @Override
    public synchronized void close() {
        for (Instance i : all) {
            if (i.process.isAlive()) {
                i.endedBy = "test end";
                i.process.destroyForcibly();
            }
        }
        for (Instance i : all) {
            try {
                i.process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
