package dev.rsql.e2e;

import dev.rsql.runtime.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A local job's state directory has one owner, across processes: {@code rsql run} of a job that another process runs
 * is refused in one line naming that process and its host, and leaves its checkpoints alone; a script whose stateful
 * statement changed is refused naming the statement, until {@code --from-scratch} or {@code rsql reset}. Each process
 * is a child JVM running the CLI with the test class path.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LocalStateOwnershipTest {

    static final String JOB = "totals";
    static final String SCRIPT = "CREATE TABLE ticks (id BIGINT, v INT) WITH ('connector' = 'datagen',"
            + " 'rows-per-second' = '200', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
            + " 'fields.id.end' = '100000000');\n"
            + "CREATE TABLE totals (k BIGINT, n BIGINT) WITH ('connector' = 'print');\n"
            + "INSERT INTO totals SELECT id % 3, %s FROM ticks GROUP BY id % 3;\n";

    @TempDir
    Path dir;

    final List<Process> processes = new ArrayList<>();
    final List<Path> logs = new ArrayList<>();

    @AfterEach
    void killChildren() throws InterruptedException {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    Path script(String aggregate) throws IOException {
        Path script = dir.resolve(JOB + ".sql");
        Files.writeString(script, SCRIPT.replace("%s", aggregate));
        return script;
    }

    Path checkpoints() {
        return dir.resolve("state").resolve(JOB).resolve("checkpoints");
    }

    /** {@code rsql <args> -D state.dir=...} in a child JVM, its output into a log of its own. */
    Process rsql(String... args) throws IOException {
        Path log = dir.resolve("rsql-" + (logs.size() + 1) + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dlogback.configurationFile=" + resource("instance-logback.xml"),
                // RocksJava copies its 15 MB library into the temporary directory; a killed job leaves the copy
                "-Djava.io.tmpdir=" + dir,
                "-cp", System.getProperty("java.class.path"),
                "dev.rsql.cli.RsqlCli", "--home", dir.resolve("home").toString()));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-D", "state.dir=" + dir.resolve("state")));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(p);
        logs.add(log);
        return p;
    }

    /** Runs the job until it has completed a checkpoint. */
    Process runUntilCheckpointed(Path script, String... extra) throws IOException {
        List<String> args = new ArrayList<>(List.of("run", script.toString(), "-D", "checkpoint.interval=200ms",
                "-D", "worker.threads=2"));
        args.addAll(List.of(extra));
        Process p = rsql(args.toArray(new String[0]));
        Await.until("a completed checkpoint", Duration.ofSeconds(60), () -> {
            assertTrue(p.isAlive(), "the job exited: " + output(p));
            return !completed().isEmpty();
        });
        return p;
    }

    /** Ends a job with SIGTERM (a graceful stop, which checkpoints) and waits for the process. */
    static void stop(Process p) throws InterruptedException {
        p.destroy();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the job did not stop on SIGTERM");
    }

    /** Waits for a process that must end by itself; returns its exit status. */
    static int exitOf(Process p) throws InterruptedException {
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the process did not end by itself");
        return p.exitValue();
    }

    String output(Process p) {
        try {
            return Files.readString(logs.get(processes.indexOf(p)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The completed checkpoints (metadata written) by name. */
    List<String> completed() {
        if (!Files.isDirectory(checkpoints())) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(checkpoints())) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("_metadata.json")))
                    .map(d -> d.getFileName().toString()).sorted().toList();
        } catch (IOException | UncheckedIOException e) {
            return List.of();   // a checkpoint was deleted while listing: ask again
        }
    }

    /** Every file under the checkpoints with its size. */
    Map<String, Long> checkpointFiles() throws IOException {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(checkpoints())) {
            for (Path p : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                out.put(checkpoints().relativize(p).toString(), Files.size(p));
            }
        }
        return out;
    }

    static void assertOneLineError(String output, String expected) {
        assertTrue(output.contains("ERROR  " + expected), output);
        assertFalse(output.contains("\tat ") || output.contains("Exception"), "a stack trace: " + output);
    }

    @Test
    void aSecondProcessOfTheJobIsRefusedNamingTheHolderAndLeavesItsCheckpointsAlone() throws Exception {
        Path script = script("COUNT(*)");
        stop(runUntilCheckpointed(script));
        // The first process now checkpoints only when it stops: what is on disk stays as it is while it runs.
        Process first = rsql("run", script.toString(), "-D", "checkpoint.interval=1h");
        Await.until("the first process restoring the checkpoint", Duration.ofSeconds(60), () -> {
            assertTrue(first.isAlive(), "the first process exited: " + output(first));
            return output(first).contains("restoring checkpoint");
        });
        Map<String, Long> before = checkpointFiles();

        Process second = rsql("run", script.toString(), "-D", "checkpoint.interval=200ms");
        assertEquals(1, exitOf(second), output(second));
        assertOneLineError(output(second), "job " + JOB + " is already running: its state directory "
                + dir.resolve("state").resolve(JOB) + " is held by process " + first.pid() + " on host "
                + InetAddress.getLocalHost().getHostName() + "; stop that one first (bin/stop.sh " + JOB + ")");
        assertTrue(first.isAlive(), output(first));
        assertEquals(before, checkpointFiles(), "the refused process changed the checkpoints");

        Process reset = rsql("reset", JOB);
        assertEquals(1, exitOf(reset), output(reset));
        assertOneLineError(output(reset), "job " + JOB + " is already running");
        assertEquals(before, checkpointFiles(), "the refused reset changed the checkpoints");
        stop(first);
        assertFalse(completed().isEmpty(), "the first process's last checkpoint");
    }

    @Test
    void aChangedStatefulStatementIsRefusedUntilStartedFromScratchOrReset() throws Exception {
        stop(runUntilCheckpointed(script("COUNT(*)")));
        List<String> taken = completed();

        Process changed = rsql("run", script("MAX(id)").toString());
        assertEquals(1, exitOf(changed), output(changed));
        assertOneLineError(output(changed), "job " + JOB + " cannot resume from checkpoint ");
        assertTrue(output(changed).contains("the state of INSERT INTO totals (operator aggregate-"), output(changed));
        assertTrue(output(changed).contains("To start from scratch (state deleted, sources from their startup mode):"
                + " bin/rsql reset " + JOB + ", or run it with --from-scratch"), output(changed));
        assertEquals(taken, completed(), "the refused run changed the checkpoints");

        Process fromScratch = runUntilCheckpointed(script("MAX(id)"), "--from-scratch");
        assertFalse(output(fromScratch).contains("restoring checkpoint"), output(fromScratch));
        stop(fromScratch);

        Process again = rsql("run", script("MIN(id)").toString());
        assertEquals(1, exitOf(again), output(again));
        assertOneLineError(output(again), "job " + JOB + " cannot resume from checkpoint ");
        Process reset = rsql("reset", JOB);
        assertEquals(0, exitOf(reset), output(reset));
        assertTrue(output(reset).contains("reset " + JOB + ": 1 checkpoint deleted; its next run starts from scratch"),
                output(reset));
        assertTrue(completed().isEmpty());
        Process afterReset = runUntilCheckpointed(script("MIN(id)"));
        assertFalse(output(afterReset).contains("restoring checkpoint"), output(afterReset));
        stop(afterReset);
    }

    private static String resource(String name) {
        try {
            return Path.of(LocalStateOwnershipTest.class.getClassLoader().getResource(name).toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
