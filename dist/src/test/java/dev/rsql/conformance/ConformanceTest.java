package dev.rsql.conformance;

import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.exec.StateBackendType;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the conformance cases in ../shared/conformance (jobs with inputs and the rows Apache Flink produced) through
 * the engine and checks the output with the cases' own checker, compare.py.
 */
class ConformanceTest {

    /** Cases whose features the engine has. */
    static final Set<String> SUPPORTED = Set.of("01-select-case-arith", "03-in-like-between", "07-union-all",
            "11-multi-insert", "12-tumble-agg", "14-hop-agg", "15-session-agg", "23-group-agg", "26-join-inner",
            "31-topn", "35-nexmark-q1");

    static Path casesDir() {
        return Path.of(System.getProperty("rsql.conformance.dir", "../../shared/conformance")).toAbsolutePath().normalize();
    }

    @TestFactory
    Stream<DynamicTest> conformanceCases() throws IOException {
        Path dir = casesDir();
        assertTrue(Files.isDirectory(dir), "conformance cases not found at " + dir);
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> cases = Files.list(dir)) {
            for (Path c : (Iterable<Path>) cases.filter(p -> SUPPORTED.contains(p.getFileName().toString())).sorted()
                    ::iterator) {
                for (StateBackendType state : StateBackendType.values()) {
                    tests.add(DynamicTest.dynamicTest(c.getFileName() + " [" + state + "]", () -> runCase(c, state)));
                }
            }
        }
        assertEquals(SUPPORTED.size() * StateBackendType.values().length, tests.size(),
                "some supported cases are missing from " + dir);
        return tests.stream();
    }

    /** Runs a case with its state in the given store (every case, so that none is left out when it gains state). */
    private static void runCase(Path source, StateBackendType state) throws Exception {
        runCase(source, "blink.sql", Path.of("target", "conformance"), state);
    }

    /**
     * Runs the case's {@code script} in a copy of the case under {@code workRoot} and checks its sinks' output
     * against the case's {@code expected/} with compare.py.
     */
    static void runCase(Path source, String scriptName, Path workRoot, StateBackendType state) throws Exception {
        Path work = workRoot.resolve(state.toString()).resolve(source.getFileName().toString()).toAbsolutePath();
        copy(source, work);
        Files.createDirectories(work.resolve("out"));
        String script = Files.readString(work.resolve(scriptName), StandardCharsets.UTF_8);
        Options config = new Options(Map.of("CASE_DIR", work.toString(), "checkpoint.interval", "200ms",
                "state.dir", work.resolve("state").toString(), StateBackendType.KEY, state.toString()));
        JobInstance job = new JobInstance(
                new ScriptPlanner(new PlannerContext(config, ConformanceTest.class.getClassLoader(), name -> null))
                        .plan(source.getFileName().toString(), script).graph(),
                new EngineContext(config, ConformanceTest.class.getClassLoader()));
        job.start();
        assertTrue(job.awaitTermination(Duration.ofMinutes(2)), "job did not finish");
        if (job.failure() != null) {
            throw new AssertionError("job failed", job.failure());
        }
        Process p = new ProcessBuilder("python3", casesDir().resolve("compare.py").toString(), work.toString())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "compare.py did not finish");
        assertEquals(0, p.exitValue(), "compare.py reports differences:\n" + output);
    }

    private static void copy(Path from, Path to) throws IOException {
        if (Files.exists(to)) {
            try (Stream<Path> old = Files.walk(to)) {
                old.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
            }
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
