package dev.rsql.cli;

import dev.rsql.runtime.testing.Await;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The built tarball, unpacked into a fresh directory and driven through its bin/ scripts like a user would. */
class DistributionIT {

    static Path home;

    @BeforeAll
    static void unpackTarball() throws Exception {
        home = unpack();
    }

    /** The built tarball unpacked into a new temporary directory; returns the installation directory. */
    static Path unpack() throws Exception {
        Path tarball = Path.of(System.getProperty("rsql.tarball", "target/rsql-0.1.0-SNAPSHOT.tar.gz"));
        assertTrue(Files.isRegularFile(tarball), "no tarball at " + tarball.toAbsolutePath());
        Path dir = Files.createTempDirectory("rsql-dist");
        Result r = exec(dir, 120, "tar", "xzf", tarball.toAbsolutePath().toString());
        assertEquals(0, r.code, r.output);
        Path installed;
        try (Stream<Path> s = Files.list(dir)) {
            installed = s.findFirst().orElseThrow();
        }
        for (String d : List.of("bin", "conf", "jobs", "ext", "lib", "log")) {
            assertTrue(Files.isDirectory(installed.resolve(d)), "tarball has no " + d + "/");
        }
        return installed;
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (home != null) {
            exec(home, 180, "bin/stop.sh");
        }
    }

    record Result(int code, String output) {
    }

    static Result exec(Path dir, int timeoutSeconds, String... command) throws Exception {
        return exec(dir, Map.of(), timeoutSeconds, command);
    }

    static Result exec(Path dir, Map<String, String> env, int timeoutSeconds, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("RSQL_HOME");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(timeoutSeconds, TimeUnit.SECONDS), "timed out: " + String.join(" ", command));
        return new Result(p.exitValue(), out);
    }

    /** Writes jobs/it/NAME.sql of the installation. */
    private static void writeJob(String name, String sql) throws IOException {
        Files.createDirectories(home.resolve("jobs/it"));
        Files.writeString(home.resolve("jobs/it/" + name + ".sql"), sql);
    }

    static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void startShowsOutputStatusAndStopStopsOnlyThatJob() throws Exception {
        String ticker = "CREATE TABLE ticks (id BIGINT, v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '20',"
                + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100000000');\n"
                + "CREATE TABLE shown (id BIGINT, v INT) WITH ('connector' = 'print', 'print-identifier' = '%s');\n"
                + "INSERT INTO shown SELECT id, v FROM ticks WHERE id %% 2 = 0;\n";
        writeJob("ticker_a", String.format(ticker, "A"));
        writeJob("ticker_b", String.format(ticker, "B"));

        Result start = exec(home, 120, "bin/start.sh", "it/ticker_a", "it/ticker_b");
        assertEquals(0, start.code, start.output);
        assertTrue(start.output.contains("started it/ticker_a"), start.output);
        Path logA = home.resolve("log/it/ticker_a.log");
        Path logB = home.resolve("log/it/ticker_b.log");
        Await.until("rows in the job log", Duration.ofSeconds(60), () -> read(logA).contains("A> +I[10, "));

        Result status = exec(home, 60, "bin/rsql", "status");
        assertTrue(status.output.contains("it/ticker_a") && status.output.contains("RUNNING"), status.output);

        Result stop = exec(home, 180, "bin/stop.sh", "it/ticker_a");
        assertEquals(0, stop.code, stop.output);
        assertTrue(stop.output.contains("stopped it/ticker_a"), stop.output);
        assertFalse(Files.exists(home.resolve("run/it/ticker_a.pid")));
        assertTrue(read(logA).contains("job=it/ticker_a instance="), read(logA));
        assertTrue(read(logA).contains("stopped"), read(logA));
        status = exec(home, 60, "bin/rsql", "status", "it/ticker_a");
        assertTrue(status.output.contains("STOPPED"), status.output);

        // The other job keeps running.
        int before = read(logB).length();
        Await.until("the other job to keep printing", Duration.ofSeconds(30), () -> read(logB).length() > before + 100);
        assertEquals(0, exec(home, 180, "bin/stop.sh", "it/ticker_b").code);
    }

    @Test
    void boundedJobsFinishByThemselves() throws Exception {
        Result r = exec(home, 180, "bin/start.sh", "login_alerts");
        assertEquals(0, r.code, r.output);
        Path alerts = home.resolve("data/login_alerts.jsonl");
        Await.until("the bounded job to finish", Duration.ofSeconds(120),
                () -> read(home.resolve("run/login_alerts.status.json")).contains("FINISHED"));
        List<String> lines = new ArrayList<>(List.of(read(alerts).split("\n")));
        assertTrue(lines.size() > 50, "alerts: " + lines.size());
        assertTrue(lines.stream().allMatch(l -> l.contains("\"rule\"")), lines.get(0));

        Result hello = exec(home, 180, "bin/rsql", "run", "hello");
        assertEquals(0, hello.code, hello.output);
        assertTrue(hello.output.contains("big> +I["), hello.output);

        // a rule file is a job too: started by name, run to its end
        Result rules = exec(home, 180, "bin/start.sh", "shop_events");
        assertEquals(0, rules.code, rules.output);
        Await.until("the rule file's job to finish", Duration.ofSeconds(120),
                () -> read(home.resolve("run/shop_events.status.json")).contains("FINISHED"));
        assertTrue(read(home.resolve("data/shop_alerts.txt")).contains("large payment: order "),
                read(home.resolve("data/shop_alerts.txt")));
    }

    @Test
    void stopOfAFinishedJobResetOfAnUnknownOneAndBrokerHelpSayWhatHappened() throws Exception {
        writeJob("done", "CREATE TABLE g (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');\n"
                + "CREATE TABLE o (id BIGINT) WITH ('connector' = 'blackhole');\nINSERT INTO o SELECT id FROM g;\n");
        assertEquals(0, exec(home, 120, "bin/start.sh", "it/done").code);
        Await.until("the bounded job to finish", Duration.ofSeconds(120),
                () -> read(home.resolve("run/it/done.status.json")).contains("FINISHED"));
        Result stop = exec(home, 60, "bin/stop.sh", "it/done");
        assertEquals(0, stop.code, stop.output);
        assertTrue(stop.output.contains("it/done has finished; nothing to stop"), stop.output);
        Result typo = exec(home, 60, "bin/stop.sh", "it/dnoe");
        assertEquals(1, typo.code, typo.output);
        assertTrue(typo.output.contains("no running job named it/dnoe"), typo.output);

        Result reset = exec(home, 60, "bin/rsql", "reset", "it/dnoe");
        assertEquals(1, reset.code, reset.output);
        assertTrue(reset.output.contains("ERROR  no job named it/dnoe"), reset.output);
        assertEquals(0, exec(home, 60, "bin/rsql", "reset", "it/done").code);

        Result help = exec(home, 30, "bin/broker.sh", "--help");
        assertEquals(0, help.code, help.output);
        assertTrue(help.output.contains("Usage: bin/broker.sh start|stop|status"), help.output);
        assertEquals(2, exec(home, 30, "bin/broker.sh", "strat").code);
    }

    @Test
    void chineseTextComesOutAsWrittenInAnyLocale() throws Exception {
        writeJob("chinese", "-- 风控：城市过滤 🚀\n"
                + "CREATE TABLE `登录` (`城市` VARCHAR, n INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3',"
                + " 'fields.城市.values' = '上海🚀');\n"
                + "CREATE TABLE o (`城市` VARCHAR, tag VARCHAR) WITH ('connector' = 'print', 'print-identifier' = '结果');\n"
                + "INSERT INTO o SELECT `城市`, '风控' FROM `登录` WHERE `城市` <> '北京';\n");
        Map<String, String> c = Map.of("LANG", "C", "LC_ALL", "C");
        Result run = exec(home, c, 180, "bin/rsql", "run", "it/chinese");
        assertEquals(0, run.code, run.output);
        assertTrue(run.output.contains("结果> +I[上海🚀, 风控]"), run.output);
        Result explain = exec(home, c, 120, "bin/rsql", "explain", "it/chinese");
        assertTrue(explain.output.contains("(城市 <> '北京')"), explain.output);
    }

    @Test
    void aStatefulJobLoadsRocksDbFromLibNativeNotFromACopyOfItsJar() throws Exception {
        Assumptions.assumeTrue("Linux".equals(System.getProperty("os.name")) && "amd64".equals(System.getProperty("os.arch")),
                "lib/native holds the x86-64 and aarch64 Linux libraries; this runs on the first");
        Path library = home.resolve("lib/native/librocksdbjni-linux64.so");
        assertTrue(Files.isRegularFile(library));
        Result r = exec(home, Map.of("JAVA_OPTS", "-Xlog:library=info"), 180, "bin/rsql", "run", "login_stats",
                "-D", "state.dir=" + home.resolve("state-native-library"));
        assertEquals(0, r.code, r.output);
        // the JVM logs the path of every native library it loads
        List<String> loaded = r.output.lines().filter(l -> l.contains("Loaded library") && l.contains("rocksdb"))
                .toList();
        assertEquals(1, loaded.size(), r.output);
        assertTrue(loaded.get(0).contains("Loaded library " + library.toRealPath() + ","), loaded.get(0));
    }

    @Test
    void aScriptRunAgainLoadsItsCompiledCodeAndADamagedCopyIsCompiledAgain() throws Exception {
        writeJob("cached", "CREATE TABLE g (id BIGINT, name STRING) WITH ("
                + "'connector' = 'datagen', 'seed' = '7', 'number-of-rows' = '30', 'fields.id.kind' = 'sequence',"
                + " 'fields.id.start' = '1', 'fields.id.end' = '30', 'fields.name.values' = 'alpha,beta,gamma');\n"
                + "CREATE TABLE shown (id BIGINT, name STRING) WITH ('connector' = 'print',"
                + " 'print-identifier' = 'c');\n"
                // no MOD: once in a while a run's code for it took another of SqlFunctions.mod's overloads (a
                // second entry, not a wrong one), and this test needs the same code each time
                + "INSERT INTO shown SELECT id, UPPER(name) FROM g WHERE id > 10 AND name LIKE '%a';\n");
        Path cache = home.resolve("state/.compiled-code");
        List<Path> before = classFiles(cache);

        Result first = exec(home, 180, "bin/rsql", "run", "it/cached");
        assertEquals(0, first.code, first.output);
        List<String> rows = printed(first.output);
        assertFalse(rows.isEmpty(), first.output);
        List<Path> kept = classFiles(cache);
        kept.removeAll(before);
        assertEquals(1, kept.size(), "the job's compiled code is kept: " + kept);
        Path file = kept.get(0);

        // run again: the file is read (its time of last use moves) and the job prints the same rows
        Files.setLastModifiedTime(file, FileTime.fromMillis(946_684_800_000L));
        Result second = exec(home, 180, "bin/rsql", "run", "it/cached");
        assertEquals(0, second.code, second.output);
        assertEquals(rows, printed(second.output));
        assertTrue(Files.getLastModifiedTime(file).toMillis() > 946_684_800_000L, "the kept code was not used");
        assertEquals(List.of(file), classFiles(cache).stream().filter(f -> !before.contains(f)).toList());

        // a damaged file: compiled again, written again, same rows
        Files.write(file, new byte[] {1, 2, 3});
        Result third = exec(home, 180, "bin/rsql", "run", "it/cached");
        assertEquals(0, third.code, third.output);
        assertEquals(rows, printed(third.output));
        assertTrue(third.output.contains("compiled code cache: cannot read"), third.output);
        assertTrue(Files.size(file) > 100, "written again after compiling");
    }

    private static List<Path> classFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return new ArrayList<>();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return new ArrayList<>(s.filter(f -> f.toString().endsWith(".classes")).sorted().toList());
        }
    }

    private static List<String> printed(String output) {
        return output.lines().filter(l -> l.startsWith("c> ")).sorted().toList();
    }

    @Test
    void oneShotCommandsRunWithTheClientCompilerOnlyAndJobsWithBoth() throws Exception {
        writeJob("jit", "CREATE TABLE g (id BIGINT) WITH ('connector' = 'datagen',"
                + " 'number-of-rows' = '1');\nCREATE TABLE b (id BIGINT) WITH ('connector' = 'blackhole');\n"
                + "INSERT INTO b SELECT id FROM g;\n");
        Map<String, String> flags = Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal");
        assertEquals("1", tieredStopAtLevel(exec(home, flags, 120, "bin/rsql", "check", "it/jit")));
        assertEquals("1", tieredStopAtLevel(exec(home, flags, 60, "bin/rsql", "status", "it/jit")));
        Result run = exec(home, flags, 180, "bin/rsql", "run", "it/jit");
        assertEquals("4", tieredStopAtLevel(run));
        assertEquals("100000", flag(run, "Tier4InvocationThreshold"), "jobs: C2 after more calls");
        assertEquals("5000", flag(exec(home, flags, 60, "bin/rsql", "status", "it/jit"), "Tier4InvocationThreshold"));
        // a setting of the user's own wins
        assertEquals("4", tieredStopAtLevel(exec(home, Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal -XX:TieredStopAtLevel=4"),
                60, "bin/rsql", "status", "it/jit")));
        assertEquals("7000", flag(exec(home, Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal -XX:Tier4InvocationThreshold=7000"),
                180, "bin/rsql", "run", "it/jit"), "Tier4InvocationThreshold"));
    }

    private static String tieredStopAtLevel(Result r) {
        return flag(r, "TieredStopAtLevel");
    }

    private static String flag(Result r, String name) {
        Matcher m = Pattern.compile(name + "\\s+=\\s+(\\d+)").matcher(r.output);
        assertTrue(m.find(), r.output);
        return m.group(1);
    }

    @Test
    void anotherInstanceOfALocalJobIsRefusedByStart() throws Exception {
        writeJob("local_only", "CREATE TABLE ticks (id BIGINT) WITH ("
                + "'connector' = 'datagen', 'rows-per-second' = '5');\n"
                + "CREATE TABLE shown (id BIGINT) WITH ('connector' = 'print');\n"
                + "INSERT INTO shown SELECT id FROM ticks;\n");
        Result r = exec(home, 120, "bin/start.sh", "--instance", "2", "it/local_only");
        assertEquals(1, r.code, r.output);
        assertTrue(r.output.contains("it/local_only@2 failed to start (exit 2)"), r.output);
        assertTrue(r.output.contains("ERROR  job it/local_only is not distributed (execution.mode = local), so it runs"
                + " as one process"), r.output);
        assertFalse(r.output.contains("\tat "), "a stack trace: " + r.output);
        assertFalse(Files.exists(home.resolve("run/it/local_only@2.pid")));
        Files.delete(home.resolve("jobs/it/local_only.sql"));
    }

    @Test
    void aScriptThatDoesNotPlanIsReportedByStart() throws Exception {
        Files.writeString(home.resolve("jobs/broken.sql"), "CREATE TABLE t (a INT) WITH (type = 'print');\n"
                + "INSERT INTO t SELECT b FROM nowhere;\n");
        Result r = exec(home, 120, "bin/start.sh", "broken");
        assertEquals(1, r.code, r.output);
        assertTrue(r.output.contains("line 2, column 29: table or view 'nowhere' not found"), r.output);
        Files.delete(home.resolve("jobs/broken.sql"));
    }

    private static final List<String> BROKER_JARS = List.of("rsql-local-broker-", "rocketmq-broker-",
            "rocketmq-namesrv-", "rocketmq-store-", "rocketmq-controller-", "jraft-core-", "hessian-");

    /** The jars a process was started with: its -cp, wildcards expanded as the JVM does (no subdirectories). */
    static List<String> classPathJars(long pid) throws IOException {
        String[] args = Files.readString(Path.of("/proc/" + pid + "/cmdline")).split("\0");
        List<String> jars = new ArrayList<>();
        for (int i = 0; i + 1 < args.length; i++) {
            if (!args[i].equals("-cp")) {
                continue;
            }
            for (String entry : args[i + 1].split(":")) {
                if (!entry.endsWith("/*")) {
                    jars.add(Path.of(entry).getFileName().toString());
                    continue;
                }
                try (Stream<Path> s = Files.list(Path.of(entry.substring(0, entry.length() - 2)))) {
                    s.filter(f -> f.toString().endsWith(".jar")).forEach(f -> jars.add(f.getFileName().toString()));
                }
            }
        }
        return jars;
    }

    private static long pid(String job) throws IOException {
        return Long.parseLong(Files.readString(home.resolve("run/" + job + ".pid")).trim());
    }

    /**
     * A job process carries none of the broker's jars; bin/broker.sh runs the broker from lib/broker and it listens
     * on 127.0.0.1 only.
     */
    @Test
    void jobsDoNotCarryTheBrokersJarsAndTheBrokerListensOnLoopback() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc");
        try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
            List<String> names = lib.map(f -> f.getFileName().toString()).toList();
            for (String broker : BROKER_JARS) {
                assertTrue(names.stream().noneMatch(n -> n.startsWith(broker)), broker + " in lib/: " + names);
            }
        }
        writeJob("cp", "CREATE TABLE g (id BIGINT) WITH ('connector' = 'datagen',"
                + " 'rows-per-second' = '5');\nCREATE TABLE p (id BIGINT) WITH ('connector' = 'print');\n"
                + "INSERT INTO p SELECT id FROM g;\n");
        Result start = exec(home, 120, "bin/start.sh", "it/cp");
        assertEquals(0, start.code, start.output);
        try {
            List<String> jars = classPathJars(pid("it/cp"));
            assertTrue(jars.stream().anyMatch(j -> j.startsWith("rsql-runtime-")), jars.toString());
            for (String broker : BROKER_JARS) {
                assertTrue(jars.stream().noneMatch(j -> j.startsWith(broker)), broker + " on a job's class path");
            }
        } finally {
            assertEquals(0, exec(home, 180, "bin/stop.sh", "it/cp").code);
        }

        int port = freePort();
        int brokerPort = freePort() + 2; // and its VIP channel on the free port
        Result broker = exec(home, 120, "bin/broker.sh", "start", "--dir", home.resolve("data/it-broker").toString(),
                "--port", Integer.toString(port), "--broker-port", Integer.toString(brokerPort));
        try {
            assertEquals(0, broker.code, broker.output);
            assertTrue(broker.output.contains("listening on 127.0.0.1"), broker.output);
            long pid = Long.parseLong(Files.readString(home.resolve("run/broker.pid")).trim());
            assertTrue(classPathJars(pid).stream().anyMatch(j -> j.startsWith("rocketmq-broker-")));
            Result ss = exec(home, 30, "ss", "-ltnH");
            Assumptions.assumeTrue(ss.code == 0, "no ss: " + ss.output);
            for (int p : new int[] {port, brokerPort, brokerPort - 2}) {
                List<String> bound = Stream.of(ss.output.split("\n")).filter(l -> l.matches(".*[:\\]]" + p + "\\s.*"))
                        .toList();
                assertEquals(1, bound.size(), "port " + p + ": " + ss.output);
                assertTrue(bound.get(0).matches(".*\\s(127\\.0\\.0\\.1|\\[::ffff:127\\.0\\.0\\.1\\]):" + p + "\\s.*"),
                        "the broker listens beyond loopback: " + bound);
            }
        } finally {
            exec(home, 120, "bin/broker.sh", "stop");
        }
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** A password option and a value from the environment appear in no output, log or status. */
    @Test
    void secretsAppearInNoOutputLogOrStatus() throws Exception {
        Map<String, String> env = Map.of("RSQL_IT_ROWS", "s3cr3t-rows");
        Files.writeString(home.resolve("jobs/secret.sql"), "CREATE TABLE src (id BIGINT) WITH ("
                + "'connector' = 'datagen', 'number-of-rows' = '${RSQL_IT_ROWS}', 'password' = 'hunter2-pw');\n"
                + "CREATE TABLE shown (id BIGINT) WITH ('connector' = 'print');\n"
                + "INSERT INTO shown SELECT id FROM src;\n");
        StringBuilder seen = new StringBuilder();
        seen.append(exec(home, env, 120, "bin/rsql", "explain", "--plan", "--code", "secret").output);
        seen.append(exec(home, env, 120, "bin/rsql", "check", "secret").output);
        Result start = exec(home, env, 120, "bin/start.sh", "secret");
        seen.append(start.output);
        Path status = home.resolve("run/secret.status.json");
        Path log = home.resolve("log/secret.log");
        // The malformed option fails planning (check runs before every start); a job that got further would fail.
        Await.until("the job to fail", Duration.ofSeconds(60), () -> read(status).contains("FAILED")
                || read(log).contains("cannot be planned") || read(log).contains("cannot start"));
        seen.append(exec(home, 60, "bin/rsql", "status", "secret").output);
        seen.append(read(status)).append(read(log));
        exec(home, 120, "bin/stop.sh", "secret");
        String all = seen.toString();
        assertTrue(all.contains("option 'number-of-rows' must be an integer, got '******'"), all);
        assertFalse(all.contains("hunter2") || all.contains("s3cr3t"), all);
        Files.delete(home.resolve("jobs/secret.sql"));
    }
}
