package dev.rsql.runtime.exec;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.ExchangeNode;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.testing.KeyedWindowCount;
import dev.rsql.runtime.testing.ScriptedSourceFactory;
import dev.rsql.runtime.testing.ScriptedSourceFactory.Shard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.rsql.runtime.testing.KeyedWindowCount.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checkpoints and source shards where a job starts, restarts and rebalances: what a crash or a finished run leaves
 * behind, a checkpoint racing with a shard's arrival, and the shards of one assignment starting together.
 */
class CheckpointRecoveryTest {

    final String sourceId = UUID.randomUUID().toString();
    final String sinkId = UUID.randomUUID().toString();

    /** A tumbling count per key over the scripted source (unbounded), watermark = event time. */
    JobGraph graph() {
        return graph(false);
    }

    JobGraph graph(boolean bounded) {
        return KeyedWindowCount.graph("recovery", sourceId, sinkId, bounded);
    }

    static JobInstance start(JobGraph graph, Path stateDir, String checkpointInterval) throws Exception {
        return start(graph, stateDir, checkpointInterval, StateBackendType.ROCKSDB);
    }

    static JobInstance start(JobGraph graph, Path stateDir, String checkpointInterval, StateBackendType state)
            throws Exception {
        JobInstance job = new JobInstance(graph, EngineContext.of(Map.of("checkpoint.interval", checkpointInterval,
                "worker.threads", "2", "parallelism", "2", "state.dir", stateDir.toString(),
                StateBackendType.KEY, state.toString())));
        job.start();
        return job;
    }

    static long checkpoint(JobInstance job) throws Exception {
        return job.checkpoint().get(30, TimeUnit.SECONDS);
    }

    @Test
    void aJobRestartsWhereACrashLeftACheckpointHalfWritten(@TempDir Path dir) throws Exception {
        JobGraph graph = graph();
        JobInstance job = start(graph, dir, "1h");
        ScriptedSourceFactory.listener(sourceId).shardsAssigned(List.of(new Shard("s0", rows(50), 0)));
        assertEquals(1, checkpoint(job));
        job.stop();     // takes checkpoint 2

        // A process killed during checkpoint 3 leaves the snapshot of one task, and no metadata.
        String partition = graph.nodes().stream().filter(n -> n instanceof ExchangeNode).findFirst().orElseThrow().id()
                + "#0";
        Path leftover = dir.resolve("recovery").resolve("checkpoints").resolve("chk-3")
                .resolve(TaskDirs.safeName(partition));
        Files.createDirectories(leftover);
        Files.writeString(leftover.resolve("CURRENT"), "MANIFEST-000004\n");

        JobInstance restarted = start(graph, dir, "1h");
        try {
            var listener = ScriptedSourceFactory.listener(sourceId);
            listener.shardsAssigned(List.of(new Shard("s0", rows(50), listener.checkpointedPosition("s0").orElse(0))));
            assertEquals(3, checkpoint(restarted));
            assertNull(restarted.failure());
        } finally {
            restarted.stop();
        }
    }

    @Test
    void aFinishedJobRunsAgainFromTheBeginning(@TempDir Path dir) throws Exception {
        JobGraph graph = graph(true);
        for (int run = 1; run <= 2; run++) {
            CollectSinkFactory.clear(sinkId);
            JobInstance job = start(graph, dir, "1h");
            var listener = ScriptedSourceFactory.listener(sourceId);
            Shard s0 = new Shard("s0", rows(100), listener.checkpointedPosition("s0").orElse(0));
            listener.shardsAssigned(List.of(s0));
            listener.noMoreShards();
            // A checkpoint after every row was read, and windows [0 s, 10 s) .. [80 s, 90 s) fired.
            Await.until("the shard read", Duration.ofSeconds(30), () -> s0.lag() == 0);
            assertEquals(1, checkpoint(job), "run " + run + " starts without checkpoints");
            s0.end();
            assertTrue(job.awaitTermination(Duration.ofSeconds(30)));
            assertEquals(JobInstance.State.FINISHED, job.state());
            List<Row> windows = CollectSinkFactory.rows(sinkId);
            assertEquals(10, windows.size(), "run " + run + ": " + windows);
            for (Row r : windows) {
                assertEquals(10L, r.get(1), "run " + run + ", window " + r);
            }
        }
    }

    /** An open window's rows survive a stop and a restart with the other state store, either way round. */
    @ParameterizedTest
    @EnumSource(StateBackendType.class)
    void stateSurvivesARestartWithTheOtherStateBackend(StateBackendType first, @TempDir Path dir) throws Exception {
        StateBackendType second = first == StateBackendType.ROCKSDB ? StateBackendType.HASHMAP
                : StateBackendType.ROCKSDB;
        JobGraph graph = graph(true);
        CollectSinkFactory.clear(sinkId);
        JobInstance job = start(graph, dir, "1h", first);
        Shard head = new Shard("s0", rows(55), 0);
        ScriptedSourceFactory.listener(sourceId).shardsAssigned(List.of(head));
        Await.until("the first 55 rows read", Duration.ofSeconds(30), () -> head.lag() == 0);
        job.stop();     // its checkpoint holds window [50 s, 60 s) with 5 rows

        JobInstance restarted = start(graph, dir, "1h", second);
        var listener = ScriptedSourceFactory.listener(sourceId);
        Shard rest = new Shard("s0", rows(100), listener.checkpointedPosition("s0").orElseThrow());
        listener.shardsAssigned(List.of(rest));
        listener.noMoreShards();
        Await.until("the other 45 rows read", Duration.ofSeconds(30), () -> rest.lag() == 0);
        rest.end();
        assertTrue(restarted.awaitTermination(Duration.ofSeconds(30)));
        assertEquals(JobInstance.State.FINISHED, restarted.state());
        List<Row> windows = CollectSinkFactory.rows(sinkId);
        assertEquals(10, windows.size(), first + " then " + second + ": " + windows);
        for (Row r : windows) {
            assertEquals(10L, r.get(1), first + " then " + second + ", window " + r);
        }
    }

    @Test
    void aCheckpointTriggeredWhileAShardIsBeingAssignedCompletes(@TempDir Path dir) throws Exception {
        JobInstance job = start(graph(), dir, "1h");
        try {
            var listener = ScriptedSourceFactory.listener(sourceId);
            listener.shardsAssigned(List.of(new Shard("s0", rows(50), 0)));
            assertEquals(1, checkpoint(job));

            // A second shard arrives (a rebalance), and a checkpoint is triggered just when its task is connected to
            // the partitions downstream but not yet running: the checkpoint must wait for it or leave it out.
            Shard s1 = new Shard("s1", rows(50), 0);
            CompletableFuture<CompletableFuture<Long>> triggered = new CompletableFuture<>();
            s1.onTaskCreated = () -> {
                Thread t = new Thread(() -> triggered.complete(job.checkpoint()), "trigger");
                t.start();
                Await.until("the checkpoint triggered, or waiting to be", Duration.ofSeconds(30),
                        () -> triggered.isDone() || t.getState() == Thread.State.BLOCKED);
            };
            listener.shardsAssigned(List.of(s1));
            assertEquals(2, triggered.get(30, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS));
            assertEquals(3, checkpoint(job));
        } finally {
            job.stop();
        }
    }

    @Test
    void shardsAssignedTogetherAllConnectBeforeAnyIsRead(@TempDir Path dir) throws Exception {
        ListAppender<ILoggingEvent> taskLog = new ListAppender<>();
        Logger taskLogger = (Logger) LoggerFactory.getLogger(Task.class);
        taskLogger.addAppender(taskLog);
        taskLog.start();
        JobInstance job = start(graph(), dir, "100ms");
        try {
            Shard s0 = new Shard("s0", rows(100), 0);
            Shard s1 = new Shard("s1", rows(100), 0);
            // The watermark downstream is the minimum over the shards connected so far: had s0 been read before s1
            // was connected, s0 alone would move it, and s1's rows would come late.
            AtomicBoolean readEarly = new AtomicBoolean();
            s0.onRead = () -> readEarly.compareAndSet(false, !s1.taskCreated);
            // An engine that started s0's task before connecting s1 has logged the start by now: let it read s0.
            s1.onShardId = () -> {
                boolean s0Started;
                synchronized (taskLog) {     // the appender appends under its own lock
                    s0Started = taskLog.list.stream().anyMatch(e -> e.getFormattedMessage()
                            .contains("task=events#s0 started reading"));
                }
                if (s0Started) {
                    Await.until("s0 to be read", Duration.ofSeconds(30), () -> s0.read);
                }
            };
            ScriptedSourceFactory.listener(sourceId).shardsAssigned(List.of(s0, s1));

            // Windows [0 s, 10 s) .. [80 s, 90 s) close at the last watermark, 99 s: 10 rows of each shard in each.
            Await.until("9 windows", Duration.ofSeconds(30), () -> CollectSinkFactory.rows(sinkId).size() >= 9);
            assertFalse(readEarly.get(), "a shard was read before the other one of its assignment was connected");
            for (Row r : CollectSinkFactory.rows(sinkId)) {
                assertEquals(20L, r.get(1), "window " + r);
            }
        } finally {
            job.stop();
            taskLogger.detachAppender(taskLog);
        }
    }
}
