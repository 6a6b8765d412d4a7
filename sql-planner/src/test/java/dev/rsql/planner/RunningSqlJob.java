package dev.rsql.planner;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.testing.CollectSinkFactory;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** A script running over unbounded test sources, whose collect sinks a test watches while it runs. */
final class RunningSqlJob implements AutoCloseable {

    private final String runId = UUID.randomUUID().toString();
    private final JobInstance job;
    private final Set<String> watched = new HashSet<>();

    /** Plans and starts the script; {@code ${RUN}} in it stands for this run's id (see {@link SqlJobTest#sink}). */
    RunningSqlJob(String name, String script) throws Exception {
        job = new JobInstance(new ScriptPlanner(PlannerContext.defaults()).plan(name, script.replace("${RUN}", runId))
                .graph(), EngineContext.of(Map.of("checkpoint.interval", "50ms", "worker.threads", "2",
                "state.dir", "target/state/" + runId)));
        job.start();
    }

    JobInstance job() {
        return job;
    }

    /** Waits until the sink's rows satisfy the condition, and returns them. */
    List<Row> await(String sink, Predicate<List<Row>> condition) throws InterruptedException {
        watched.add(sink);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
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

    /** Stops the job and forgets its sinks' rows. */
    @Override
    public void close() {
        job.stop();
        assertTrue(job.awaitTermination(Duration.ofSeconds(30)), "the job did not stop");
        watched.forEach(sink -> CollectSinkFactory.clear(runId + "-" + sink));
    }
}
