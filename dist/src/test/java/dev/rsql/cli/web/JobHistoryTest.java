package dev.rsql.cli.web;

import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.exec.TaskStatus;
import dev.rsql.runtime.graph.ExchangeNode;
import dev.rsql.runtime.graph.JobGraph;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** What the status page's history makes of a job's successive statuses: rates, lag, checkpoints and events. */
class JobHistoryTest {

    private static final String SCRIPT = """
            CREATE TABLE clicks (user_id INT) WITH ('connector' = 'datagen');
            CREATE TABLE per_user (user_id INT, n BIGINT) WITH ('connector' = 'blackhole');
            INSERT INTO per_user SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id;
            """;

    private static JobGraph graph() {
        Options config = new Options(Map.of());
        return new ScriptPlanner(new PlannerContext(config, JobHistoryTest.class.getClassLoader(), n -> null))
                .plan("clicks", SCRIPT).graph();
    }

    private final JobGraph graph = graph();
    private final String source = "clicks#datagen-0";
    private final String partition = graph.nodes().stream().filter(n -> n instanceof ExchangeNode).findFirst()
            .orElseThrow().id() + "#0";

    /** A source task that read {@code read} records and handed them all to one partition task. */
    private JobStatus status(long at, long read, long out, long lag, long sourceCheckpoint, long partitionCheckpoint,
                             long skipped, String taskError, int restarts, String cause, String jobError) {
        return new JobStatus("clicks", "i-1", JobInstance.State.RUNNING, 0, at, List.of(
                new TaskStatus(source, "shard 0", TaskStatus.State.RUNNING, read, 0, skipped, lag, sourceCheckpoint,
                        null, null),
                new TaskStatus(partition, "partition 0", TaskStatus.State.RUNNING, read, out, 0, -1, partitionCheckpoint,
                        taskError, null)), jobError, restarts, cause, List.of());
    }

    @Test
    void ratesCountEachRecordOnceAndStartAgainAfterARestart() {
        JobHistory h = new JobHistory(1000, 3);
        h.sample(graph, status(0, 0, 0, 50, 0, 0, 0, null, 0, null, null), 0);
        h.sample(graph, status(1000, 500, 200, 40, 0, 0, 0, null, 0, null, null), 1000);
        h.sample(graph, status(3000, 1500, 600, 10, 0, 0, 0, null, 0, null, null), 3000);
        // a restart: the new attempt's counters start at 0
        h.sample(graph, status(4000, 300, 100, 5, 0, 0, 0, null, 1, "broker gone", null), 4000);
        JobHistory.Snapshot s = h.snapshot();
        assertArrayEquals(new long[] {1000, 3000, 4000}, s.times());
        assertArrayEquals(new double[] {500, 500, 300}, s.inPerSecond());
        assertArrayEquals(new double[] {200, 200, 100}, s.outPerSecond());
        assertArrayEquals(new long[] {40, 10, 5}, s.lag());
        assertEquals(List.of("restart: restart 1 after: broker gone"), describe(s.events()));

        // the ring buffer keeps the last three samples, oldest first
        h.sample(graph, status(5000, 400, 150, -1, 0, 0, 0, null, 1, "broker gone", null), 5000);
        s = h.snapshot();
        assertArrayEquals(new long[] {3000, 4000, 5000}, s.times());
        assertArrayEquals(new long[] {10, 5, -1}, s.lag());
        assertEquals(3000, s.windowMillis());
    }

    @Test
    void checkpointsAreThoseEveryTaskTookAndEventsAreNewsOnly() {
        JobHistory h = new JobHistory(1000, 10);
        h.sample(graph, status(0, 0, 0, -1, 100, 0, 0, null, 0, null, null), 0);
        assertEquals(List.of(), h.snapshot().checkpoints(), "the partition task took none yet");
        h.sample(graph, status(1000, 10, 10, -1, 120, 110, 0, null, 0, null, null), 1000);
        h.sample(graph, status(2000, 20, 20, -1, 1120, 110, 2, null, 0, null, null), 2000);
        h.sample(graph, status(3000, 30, 30, -1, 1120, 1130, 2, "sink refused a row", 0, null, null), 3000);
        h.sample(graph, status(4000, 30, 30, -1, 1120, 1130, 5, "sink refused a row", 0, null, "job failed: x"), 4000);
        JobHistory.Snapshot s = h.snapshot();
        assertEquals(List.of(110L, 1120L), s.checkpoints());
        assertEquals(List.of(
                "failure: job failed: x",
                "skipped " + source + ": 3 records skipped by the error policy (logged with their position, in the"
                        + " dead-letter table if any)",
                "task-error " + partition + ": sink refused a row",
                "skipped " + source + ": 2 records skipped by the error policy (logged with their position, in the"
                        + " dead-letter table if any)"), describe(s.events()));
    }

    @Test
    void anotherGraphUnderTheNameIsANewVersion() {
        JobHistory h = new JobHistory(1000, 10);
        h.sample(graph, status(0, 0, 0, -1, 0, 0, 0, null, 0, null, null), 0);
        h.sample(graph, status(1000, 100, 100, -1, 0, 0, 0, null, 0, null, null), 1000);
        JobGraph next = graph();
        h.sample(next, status(2000, 5, 5, -1, 0, 0, 0, null, 0, null, null), 2000);
        h.sample(next, status(3000, 25, 25, -1, 0, 0, 0, null, 0, null, null), 3000);
        JobHistory.Snapshot s = h.snapshot();
        assertEquals("[100.0, 20.0]", Arrays.toString(s.inPerSecond()), "no rate across the two versions");
        assertEquals(List.of("replaced: a new version of the job started"), describe(s.events()));
    }

    private static List<String> describe(List<JobHistory.Event> events) {
        return events.stream().map(e -> e.kind() + (e.task() == null ? "" : " " + e.task()) + ": " + e.message())
                .collect(Collectors.toList());
    }
}
