package dev.rsql.runtime.exec;

import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.rsql.runtime.exec.JobInstanceTest.EVENT;
import static dev.rsql.runtime.exec.JobInstanceTest.payloads;
import static dev.rsql.runtime.exec.JobInstanceTest.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tasks held in one record by a function that does not return: reported stuck; a stop does not wait forever. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TaskWatchdogTest {

    /** A job whose map blocks on {@code release} at record 13 of 20. */
    private static JobGraph blockingJob(String run, CountDownLatch release) {
        ValuesSourceFactory.register(run, payloads(0, 20));
        GraphBuilder b = new GraphBuilder("blocking");
        b.source(table("events", "values", EVENT, Map.of("id", run)))
                .map(EVENT, r -> {
                    if ((Integer) r[0] == 13) {
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return r;
                })
                .sinkTo(table("out", "collect", EVENT, Map.of("id", run + "-out")));
        return b.build();
    }

    private static JobInstance start(JobGraph graph, String stopTimeout) throws Exception {
        JobInstance job = new JobInstance(graph, EngineContext.of(Map.of("checkpoint.interval", "20ms",
                "worker.threads", "2", "task.stuck-timeout", "200ms", "stop.timeout", stopTimeout, "state.dir",
                "target/state")));
        job.start();
        return job;
    }

    private static TaskStatus onlyTask(JobInstance job) {
        assertEquals(1, job.status().tasks.size());
        return job.status().tasks.get(0);
    }

    @Test
    void aTaskInOneRecordTooLongIsStuckUntilItMovesOn() throws Exception {
        String run = UUID.randomUUID().toString();
        CountDownLatch release = new CountDownLatch(1);
        JobInstance job = start(blockingJob(run, release), "10s");
        try {
            Await.until("the task reported stuck", Duration.ofSeconds(30),
                    () -> onlyTask(job).state == TaskStatus.State.STUCK);
            StuckRecord stuck = onlyTask(job).stuck;
            assertNotNull(stuck);
            assertEquals("values " + run + "-0, record 13", stuck.position);
            assertTrue(stuck.sinceMillis <= System.currentTimeMillis());
        } finally {
            release.countDown();
        }
        assertTrue(job.awaitTermination(Duration.ofSeconds(30)));
        assertEquals(JobInstance.State.FINISHED, job.state());
        assertNull(onlyTask(job).stuck, "no longer stuck once it moved on");
        assertEquals(20, CollectSinkFactory.rows(run + "-out").size());
    }

    @Test
    void aStopLeavesATaskThatDoesNotYieldBehindAfterTheStopTimeout() throws Exception {
        String run = UUID.randomUUID().toString();
        CountDownLatch release = new CountDownLatch(1);
        JobInstance job = start(blockingJob(run, release), "1s");
        try {
            Await.until("the task reported stuck", Duration.ofSeconds(30),
                    () -> onlyTask(job).state == TaskStatus.State.STUCK);
            job.stop();
            assertTrue(job.termination().isDone(), "stop() returned before the job ended");
            assertEquals(JobInstance.State.STOPPED, job.state());
            assertEquals(TaskStatus.State.STUCK, onlyTask(job).state, "the task that did not stop is left behind");
        } finally {
            release.countDown();
        }
    }
}
