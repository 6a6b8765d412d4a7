package dev.rsql.runtime.exec.restart;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.connector.ShardListener;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.CheckpointException;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance.State;
import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.testing.KeyedWindowCount;
import dev.rsql.runtime.testing.ScriptedSourceFactory;
import dev.rsql.runtime.testing.ScriptedSourceFactory.Shard;
import org.apache.rocketmq.remoting.exception.RemotingConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static dev.rsql.runtime.testing.KeyedWindowCount.rows;
import static dev.rsql.runtime.testing.KeyedWindowCount.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job that fails for a transient cause restarts from its last checkpoint in the same process, and one that fails
 * for any other cause ends; the restarts leave no threads of the failed attempts behind. A keyed tumbling count over
 * the scripted source, whose test-held listener lets the test fail the source as a lost broker connection would.
 */
class RestartingJobTest {

    final String sourceId = UUID.randomUUID().toString();
    final String sinkId = UUID.randomUUID().toString();
    final String jobName = "restartable-" + UUID.randomUUID().toString().substring(0, 8);

    @TempDir
    Path stateDir;

    JobGraph graph() {
        return KeyedWindowCount.graph(jobName, sourceId, sinkId, false);
    }

    RestartingJob job(Map<String, String> restartSettings) {
        Map<String, String> config = new LinkedHashMap<>(Map.of("checkpoint.interval", "20ms", "worker.threads", "2",
                "parallelism", "2", "state.dir", stateDir.toString()));
        config.putAll(restartSettings);
        return new RestartingJob(graph(), EngineContext.of(config));
    }

    /** The counts emitted per window start, every emission. */
    Map<Long, List<Long>> counts() {
        Map<Long, List<Long>> m = new TreeMap<>();
        for (Row r : CollectSinkFactory.rows(sinkId)) {
            m.computeIfAbsent(((Number) r.get(2)).longValue(), w -> new ArrayList<>()).add((Long) r.get(1));
        }
        return m;
    }

    /** The live threads of this job (all attempts), by the job's thread name prefix. */
    long threads(String kind) {
        String prefix = "rsql-" + jobName + "-" + kind;
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix)).count();
    }

    /** Waits for the source of a new attempt (not {@code previous}) and gives it the shard from its checkpoint. */
    ShardListener assignFromCheckpoint(ShardListener previous, int rows) {
        ShardListener[] current = new ShardListener[1];
        Await.until("a new attempt's source", Duration.ofSeconds(30), () -> {
            try {
                current[0] = ScriptedSourceFactory.listener(sourceId);
                return current[0] != previous;
            } catch (IllegalStateException e) {
                return false;
            }
        });
        ShardListener l = current[0];
        l.shardsAssigned(List.of(new Shard("s0", rows(rows), l.checkpointedPosition("s0").orElse(0))));
        return l;
    }

    static RemotingConnectException brokerGone() {
        return new RemotingConnectException("127.0.0.1:10911");
    }

    @Test
    void aTransientFailureRestartsFromTheLastCheckpointAndLeavesNoThreadsBehind() throws Exception {
        RestartingJob job = job(Map.of("restart-strategy.exponential-delay.initial-backoff", "20ms",
                "restart-strategy.exponential-delay.jitter-factor", "0"));
        job.start();
        try {
            ShardListener listener = assignFromCheckpoint(null, 40);
            int rows = 40;
            for (int restart = 1; restart <= 3; restart++) {
                int windowsBefore = rows / 10 - 1;
                Await.until("windows before failure " + restart + ": " + counts(), Duration.ofSeconds(30),
                        () -> counts().size() >= windowsBefore);
                ScriptedSourceFactory.listener(sourceId).sourceFailed(new CheckpointException("job " + jobName
                        + " task events#s0: committing its position failed", brokerGone()));
                rows += 20;
                listener = assignFromCheckpoint(listener, rows);
                int r = restart;
                Await.until(() -> "restart " + r + " counted: " + job.status().restarts, Duration.ofSeconds(30),
                        () -> job.status().restarts == r && job.state() == State.RUNNING);
            }
            int total = rows;
            Await.until(() -> "every window but the last: " + counts(), Duration.ofSeconds(30),
                    () -> counts().size() >= total / 10 - 1);
            counts().forEach((window, emitted) -> assertTrue(emitted.stream().allMatch(c -> c == 10),
                    "window " + window + " emitted " + emitted));
            JobStatus status = job.status();
            assertEquals(3, status.restarts);
            assertTrue(status.restartCause.contains("127.0.0.1:10911"), status.restartCause);
            // Each attempt has 2 workers and a timer; the failed ones' threads end with them.
            Await.until(() -> "only the current attempt's threads: " + threads("worker") + " workers, "
                    + threads("timer") + " timers", Duration.ofSeconds(30),
                    () -> threads("worker") <= 2 && threads("timer") == 1);
        } finally {
            job.stop();
        }
        assertEquals(State.STOPPED, job.state());
        assertNull(job.failure());
    }

    @Test
    void aFailureThatIsNotTransientEndsTheJob() throws Exception {
        RestartingJob job = job(Map.of("restart-strategy.exponential-delay.initial-backoff", "20ms"));
        job.start();
        ShardListener listener = assignFromCheckpoint(null, 10);
        listener.sourceFailed(new ConfigException("table events: option 'x' is wrong"));
        assertTrue(job.awaitTermination(Duration.ofSeconds(30)), "the job did not end");
        assertEquals(State.FAILED, job.state());
        assertEquals("table events: option 'x' is wrong", job.failure().getMessage());
        assertEquals(0, job.status().restarts);
        assertNotSame(null, job.status().error);
    }

    @Test
    void aStateDirectoryThatCannotBeWrittenEndsTheJob() throws Exception {
        Path notADirectory = Files.writeString(stateDir.resolve("a-file"), "not a directory");
        RestartingJob job = job(Map.of("state.dir", notADirectory.toString(),
                "restart-strategy.exponential-delay.initial-backoff", "20ms"));
        assertThrows(Exception.class, job::start);
        assertTrue(job.awaitTermination(Duration.ofSeconds(30)), "the job did not end");
        assertEquals(State.FAILED, job.state());
        assertEquals(0, job.status().restarts);
    }

    @Test
    void aStopWhileWaitingToRestartEndsTheJobAtOnce() throws Exception {
        RestartingJob job = job(Map.of("restart-strategy.exponential-delay.initial-backoff", "10min"));
        job.start();
        ShardListener listener = assignFromCheckpoint(null, 10);
        listener.sourceFailed(brokerGone());
        Await.until("RESTARTING", Duration.ofSeconds(30), () -> job.state() == State.RESTARTING
                && job.status().restarts == 1);
        JobStatus waiting = job.status();
        assertEquals(State.RESTARTING, waiting.state);
        assertTrue(waiting.restartCause.contains("127.0.0.1:10911"), waiting.restartCause);
        long t0 = System.nanoTime();
        job.stop();
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(30).toNanos(), "stop waited for the back-off");
        assertEquals(State.STOPPED, job.state());
    }

    @Test
    void theJobEndsWhenTheStrategyGivesUp() throws Exception {
        RestartingJob job = job(Map.of("restart-strategy.type", "fixed-delay",
                "restart-strategy.fixed-delay.delay", "10ms", "restart-strategy.fixed-delay.attempts", "2"));
        job.start();
        ShardListener listener = null;
        for (int failure = 1; failure <= 3; failure++) {
            listener = assignFromCheckpoint(listener, 10);
            listener.sourceFailed(brokerGone());
        }
        assertTrue(job.awaitTermination(Duration.ofSeconds(30)), "the job did not end");
        assertEquals(State.FAILED, job.state());
        assertEquals(2, job.status().restarts);
    }

    @Test
    void aBadRestartSettingIsAConfigurationError() {
        assertThrows(ConfigException.class, () -> job(Map.of("restart-strategy.type", "sometimes")));
    }
}
