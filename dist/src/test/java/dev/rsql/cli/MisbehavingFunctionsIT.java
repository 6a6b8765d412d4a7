package dev.rsql.cli;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.testing.Await;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static dev.rsql.cli.DistributionIT.exec;
import static dev.rsql.cli.DistributionIT.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * User functions from a jar in {@code ext/} that loop forever, call {@code System.exit} and allocate until the heap is
 * gone, in a checkpointed windowed count run by {@code bin/start.sh} from the built tarball. Each function misbehaves
 * on one record while its "armed" file exists. The job is reported stuck (log and {@code bin/rsql status}) or fails,
 * naming the function and record; {@code bin/stop.sh} stops the stuck job within its stop timeout; and after every
 * fault the job restarts from its last checkpoint, so that with the files gone every window ends up exact.
 */
class MisbehavingFunctionsIT {

    static final String JOB = "udf_faults";
    /** Rows 1..ROWS at 100 rows/s, one every 100 ms of event time: 10 per one-second window (9 in the first). */
    static final int ROWS = 600;
    static final String[] FUNCTIONS = {
        "Spin", "        while (true) {\n            spins++;\n        }\n",
        "Quit", "        System.exit(3);\n",
        "Hog", "        java.util.List<long[]> hoard = new java.util.ArrayList<>();\n"
                + "        while (true) {\n            hoard.add(new long[1 << 20]);\n        }\n",
    };

    static Path home;
    static Path log;
    static Path counts;

    @BeforeAll
    static void install() throws Exception {
        home = DistributionIT.unpack();
        log = home.resolve("log/" + JOB + ".log");
        counts = home.resolve("data/counts.jsonl");
        Files.createDirectories(counts.getParent());
        buildFunctionsJar(home.resolve("ext/bad-functions.jar"));
        // Small and frugal job processes: the allocating function reaches the end of the heap at once.
        Files.writeString(home.resolve("conf/rsql-env.sh"), "RSQL_HEAP_OPTS='-Xms32m -Xmx128m'\n"
                + "JAVA_OPTS='-XX:+UseSerialGC -XX:TieredStopAtLevel=1'\n", StandardOpenOption.APPEND);
        Files.writeString(home.resolve("jobs/" + JOB + ".sql"), "SET 'task.stuck-timeout' = '2s';\n"
                + "SET 'stop.timeout' = '4s';\n"
                + "SET 'checkpoint.interval' = '200ms';\n"
                + "CREATE FUNCTION spin AS 'com.example.bad.Spin';\n"
                + "CREATE FUNCTION quit AS 'com.example.bad.Quit';\n"
                + "CREATE FUNCTION hog AS 'com.example.bad.Hog';\n"
                + "CREATE TABLE gen (id BIGINT, ts AS TO_TIMESTAMP(id * 100),\n"
                + "  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND\n"
                + ") WITH ('connector' = 'datagen', 'rows-per-second' = '100', 'fields.id.kind' = 'sequence',\n"
                + "  'fields.id.start' = '1', 'fields.id.end' = '" + ROWS + "');\n"
                + "CREATE TABLE counts (window_start TIMESTAMP(3), c BIGINT)\n"
                + "  WITH ('connector' = 'filesystem', 'path' = '" + counts + "');\n"
                + "CREATE VIEW checked AS SELECT * FROM gen\n"
                + "  WHERE spin(id, 150, '" + armed("Spin") + "') AND quit(id, 250, '" + armed("Quit") + "')\n"
                + "    AND hog(id, 350, '" + armed("Hog") + "');\n"
                + "INSERT INTO counts SELECT window_start, COUNT(*)\n"
                + "  FROM TABLE(TUMBLE(TABLE checked, DESCRIPTOR(ts), INTERVAL '1' SECOND))\n"
                + "  GROUP BY window_start, window_end;\n");
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (home != null) {
            exec(home, 120, "bin/stop.sh");
        }
    }

    @Test
    void misbehavingFunctionsAreNamedTheJobStopsAndARestartLosesNothing() throws Exception {
        try {
            aFunctionThatLoopsIsReportedStuckAndStopStopsTheJob();
            aFunctionThatCallsSystemExitFailsTheJobWithoutDeadlock();
            aFunctionThatExhaustsTheHeapFailsTheJobNamingIt();
            everyWindowIsExactAfterTheRestarts();
        } catch (Throwable t) {
            System.out.println("==== " + log + " ====\n" + read(log));
            throw t;
        }
    }

    private void aFunctionThatLoopsIsReportedStuckAndStopStopsTheJob() throws Exception {
        long pid = start("Spin");
        Await.until("the task reported stuck in the status file", Duration.ofSeconds(60),
                () -> read(home.resolve("run/" + JOB + ".status.json")).contains("\"stuck\""));
        String stuck = log().lines().filter(l -> l.contains(" stuck for ")).findFirst().orElse("no line says stuck");
        assertTrue(stuck.contains("job=" + JOB + " task=gen#datagen-0 stuck for ") && stuck.contains(" s in function"
                + " com.example.bad.Spin.eval (bad-functions.jar) at datagen gen shard 0, row 149"), stuck);
        DistributionIT.Result status = exec(home, 60, "bin/rsql", "status", JOB);
        assertTrue(status.output().contains("STUCK") && status.output().contains("in function com.example.bad.Spin.eval"
                + " (bad-functions.jar) at datagen gen shard 0, row 149"), status.output());

        DistributionIT.Result stop = exec(home, 120, "bin/stop.sh", JOB);
        // Stopped by the process itself, within its stop timeout: bin/stop.sh would otherwise have killed it.
        assertEquals(0, stop.code(), stop.output());
        assertTrue(stop.output().contains("stopped " + JOB + " (pid " + pid + ")"), stop.output());
        assertTrue(log().contains("did not stop within 4 s in function com.example.bad.Spin.eval"), log());
        assertTrue(log().contains("halting the process"), log());
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    private void aFunctionThatCallsSystemExitFailsTheJobWithoutDeadlock() throws Exception {
        long pid = start("Quit");
        awaitExit(pid);
        assertTrue(log().contains("called System.exit in function com.example.bad.Quit.eval (bad-functions.jar) at"
                + " datagen gen shard 0, row 249"), "the log names the function and record");
        assertTrue(log().contains("halting the process"), log());
        JSONObject status = status();
        assertEquals("FAILED", status.getString("state"));
        assertTrue(status.getString("error").contains("System.exit called in function com.example.bad.Quit.eval"),
                status.getString("error"));
    }

    private void aFunctionThatExhaustsTheHeapFailsTheJobNamingIt() throws Exception {
        long pid = start("Hog");
        awaitExit(pid);
        String expected = "java.lang.OutOfMemoryError: Java heap space in function com.example.bad.Hog.eval"
                + " (bad-functions.jar) at record datagen gen shard 0, row 349";
        assertTrue(log().contains(expected), "the log names the function and record");
        JSONObject status = status();
        assertEquals("FAILED", status.getString("state"));
        assertTrue(status.getString("error").contains(expected), status.getString("error"));
    }

    private void everyWindowIsExactAfterTheRestarts() throws Exception {
        long pid = start(null);
        awaitExit(pid);
        assertEquals("FINISHED", status().getString("state"), log());
        Map<String, Long> expected = new TreeMap<>();
        for (long id = 1; id <= ROWS; id++) {
            expected.merge(String.format("1970-01-01 00:%02d:%02d.000", id / 600, id / 10 % 60), 1L, Long::sum);
        }
        // At least once: windows fired after the last checkpoint of a run fire again, with the same count.
        Map<String, Long> emitted = new TreeMap<>();
        for (String line : read(counts).split("\n")) {
            JSONObject row = JSON.parseObject(line);
            Long before = emitted.put(row.getString("window_start"), row.getLong("c"));
            assertTrue(before == null || before.equals(row.getLong("c")), "window emitted twice with different"
                    + " counts: " + line + " after " + before);
        }
        assertEquals(expected, emitted);
    }

    /** Starts the job with only {@code function}'s armed file present (none: null); returns its process id. */
    private static long start(String function) throws Exception {
        for (int i = 0; i < FUNCTIONS.length; i += 2) {
            Files.deleteIfExists(armed(FUNCTIONS[i]));
        }
        if (function != null) {
            Files.writeString(armed(function), "");
        }
        Files.deleteIfExists(log);
        DistributionIT.Result r = exec(home, 120, "bin/start.sh", JOB);
        assertEquals(0, r.code(), r.output());
        return Long.parseLong(read(home.resolve("run/" + JOB + ".pid")).trim());
    }

    private static void awaitExit(long pid) {
        Await.until("the job process " + pid + " to exit", Duration.ofSeconds(90),
                () -> !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    private static JSONObject status() {
        return JSON.parseObject(read(home.resolve("run/" + JOB + ".status.json")));
    }

    private static String log() {
        return read(log);
    }

    private static Path armed(String function) {
        return home.resolve("data/armed-" + function);
    }

    /**
     * One jar with the classes {@code com.example.bad.Spin/Quit/Hog}: {@code eval(id, at, armedFile)} returns true,
     * except for row {@code at} while {@code armedFile} exists.
     */
    private static void buildFunctionsJar(Path jar) throws IOException {
        Path src = Files.createTempDirectory("bad-functions");
        Path classes = src.resolve("classes");
        Files.createDirectories(classes.resolve("com/example/bad"));
        String[] files = new String[FUNCTIONS.length / 2 + 2];
        files[0] = "-d";
        files[1] = classes.toString();
        for (int i = 0; i < FUNCTIONS.length; i += 2) {
            Path file = src.resolve(FUNCTIONS[i] + ".java");
            Files.writeString(file, "package com.example.bad;\n"
                    + "public class " + FUNCTIONS[i] + " {\n"
                    + "    public static volatile long spins;\n"
                    + "    public boolean eval(long id, long at, String armed) {\n"
                    + "        if (id == at && java.nio.file.Files.exists(java.nio.file.Path.of(armed))) {\n"
                    + FUNCTIONS[i + 1]
                    + "        }\n"
                    + "        return true;\n"
                    + "    }\n"
                    + "}\n");
            files[i / 2 + 2] = file.toString();
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, javac.run(null, null, null, files), "the test functions compile");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (int i = 0; i < FUNCTIONS.length; i += 2) {
                String name = "com/example/bad/" + FUNCTIONS[i] + ".class";
                out.putNextEntry(new JarEntry(name));
                out.write(Files.readAllBytes(classes.resolve(name)));
                out.closeEntry();
            }
        }
    }
}
