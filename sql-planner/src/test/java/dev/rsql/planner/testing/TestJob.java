package dev.rsql.planner.testing;

import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.testing.CollectSinkFactory;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A script planned and run as a job over the runtime's in-memory test tables ({@code values} sources, {@code collect}
 * sinks). {@code ${RUN}} in the script stands for this run's id, so that the sinks of concurrent runs stay apart.
 */
public final class TestJob implements AutoCloseable {

    /** Generous: the suite shares two cores with other builds; a passing run never waits this long. */
    private static final Duration TIMEOUT = Duration.ofSeconds(180);

    private final String runId = UUID.randomUUID().toString();
    private final JobInstance job;
    private final Set<String> watched = new HashSet<>();

    /** Plans and starts the script with the default planner context. */
    public TestJob(String name, String script) throws Exception {
        this(PlannerContext.defaults(), name, script, Map.of());
    }

    /** Plans and starts the script; {@code engineConfig} are engine settings (conf/) besides the test defaults. */
    public TestJob(PlannerContext context, String name, String script, Map<String, String> engineConfig)
            throws Exception {
        Map<String, String> config = new HashMap<>(Map.of("checkpoint.interval", "50ms", "worker.threads", "2",
                "state.dir", "target/state/" + runId));
        config.putAll(engineConfig);
        job = new JobInstance(new ScriptPlanner(context).plan(name, script.replace("${RUN}", runId)).graph(),
                new EngineContext(new Options(config), context.classLoader()));
        job.start();
    }

    /** Runs a bounded script to completion and returns the rows of each collect sink, by table name. */
    public static Map<String, List<Row>> run(String script, String... sinks) throws Exception {
        return run(PlannerContext.defaults(), script, sinks);
    }

    public static Map<String, List<Row>> run(PlannerContext context, String script, String... sinks)
            throws Exception {
        TestJob run = new TestJob(context, "t", script, Map.of());
        run.awaitCompletion();
        return run.take(sinks);
    }

    /** A {@code values} source table reading the rows registered under its name. */
    public static String source(String id, String columns) {
        return "CREATE TABLE " + id + " (" + columns + ") WITH (type = 'values', id = '" + id + "');\n";
    }

    /** A {@code collect} sink table of this run. */
    public static String sink(String name, String columns) {
        return "CREATE TABLE " + name + " (" + columns + ") WITH (type = 'collect', id = '${RUN}-" + name + "');\n";
    }

    /** The rows as sorted text, so that tests need not depend on the order parallel tasks write in. */
    public static List<String> rows(List<Row> rows) {
        return rows.stream().map(r -> Arrays.deepToString(r.fields())).sorted().collect(Collectors.toList());
    }

    public JobInstance job() {
        return job;
    }

    /** Waits for a bounded job to finish; fails the test if it does not, or if the job failed. */
    public void awaitCompletion() {
        assertTrue(job.awaitTermination(TIMEOUT), "job did not finish");
        if (job.failure() != null) {
            throw new AssertionError("job failed: " + job.failure().getMessage(), job.failure());
        }
    }

    /** The rows of each collect sink, by table name, which are then forgotten. */
    public Map<String, List<Row>> take(String... sinks) {
        Map<String, List<Row>> out = new HashMap<>();
        for (String sink : sinks) {
            out.put(sink, CollectSinkFactory.rows(runId + "-" + sink));
            CollectSinkFactory.clear(runId + "-" + sink);
        }
        return out;
    }

    /** Waits until the sink's rows satisfy the condition, and returns them (for jobs that do not end by themselves). */
    public List<Row> await(String sink, Predicate<List<Row>> condition) throws InterruptedException {
        watched.add(sink);
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            List<Row> rows = CollectSinkFactory.rows(runId + "-" + sink);
            if (condition.test(rows)) {
                return rows;
            }
            assertTrue(System.nanoTime() < deadline, "timed out waiting for sink " + sink + "; it has " + rows);
            assertTrue(job.failure() == null, "the job failed: " + job.failure());
            Thread.sleep(10);
        }
    }

    /** Stops the job and forgets the rows of the sinks {@link #await} watched. */
    @Override
    public void close() {
        job.stop();
        assertTrue(job.awaitTermination(TIMEOUT), "the job did not stop");
        watched.forEach(sink -> CollectSinkFactory.clear(runId + "-" + sink));
    }
}
