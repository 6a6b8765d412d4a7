package dev.rsql.cli;

import dev.rsql.runtime.testing.Await;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("RSQL_HOME");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(timeoutSeconds, TimeUnit.SECONDS), "timed out: " + String.join(" ", command));
        return new Result(p.exitValue(), out);
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
        Files.createDirectories(home.resolve("jobs/it"));
        Files.writeString(home.resolve("jobs/it/ticker_a.sql"), String.format(ticker, "A"));
        Files.writeString(home.resolve("jobs/it/ticker_b.sql"), String.format(ticker, "B"));

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
}
