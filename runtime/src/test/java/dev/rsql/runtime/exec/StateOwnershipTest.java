package dev.rsql.runtime.exec;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.aggregate.CountFunction;
import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.WindowSpec;
import dev.rsql.runtime.testing.ScriptedSourceFactory;
import dev.rsql.runtime.testing.ScriptedSourceFactory.Shard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;

import static dev.rsql.runtime.testing.KeyedWindowCount.COUNTS;
import static dev.rsql.runtime.testing.KeyedWindowCount.EVENTS;
import static dev.rsql.runtime.testing.KeyedWindowCount.WINDOW;
import static dev.rsql.runtime.testing.KeyedWindowCount.WITH_WATERMARK;
import static dev.rsql.runtime.exec.CheckpointRecoveryTest.checkpoint;
import static dev.rsql.runtime.testing.KeyedWindowCount.rows;
import static dev.rsql.runtime.testing.KeyedWindowCount.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One owner per local state directory, in one process (the multi-process case is in dist's e2e tests): a second
 * instance of a running job is refused and changes nothing, the next one after the first ended gets the directory;
 * and checkpoints record what they belong to, so that a changed aggregation is not resumed from state it did not
 * write.
 */
class StateOwnershipTest {

    static final String JOB = "owned";
    static final AggregateCall COUNT_ALL = new AggregateCall("COUNT(*)", () -> new CountFunction(-1));
    static final AggregateCall COUNT_V = new AggregateCall("COUNT(v)", () -> new CountFunction(1));

    final String sourceId = UUID.randomUUID().toString();

    /** A tumbling window per key computing {@code aggregate} over the scripted source, into {@code counts}. */
    JobGraph graph(AggregateCall aggregate) {
        GraphBuilder b = new GraphBuilder(JOB);
        b.source(table("events", "scripted", EVENTS, Map.of("id", sourceId, "bounded", "false")))
                .map(WITH_WATERMARK, r -> new Object[]{r[0], r[1], r[2], r[2]})
                .watermark(2, 3)
                .window(WindowSpec.tumble(2, true, WINDOW))
                .exchange(0)
                .windowAggregate(new int[]{0}, 4, 5, true, false, List.of(aggregate), EmitSpec.ON_WATERMARK, COUNTS,
                        null)
                .sinkTo(table("counts", "collect", COUNTS, Map.of("id", UUID.randomUUID().toString())));
        return b.build();
    }

    /** Per statement, its own tumbling count into {@code counts_<name>}; every statement reads the one source. */
    JobGraph statements(String... names) {
        GraphBuilder b = new GraphBuilder(JOB);
        for (String name : names) {
            b.source(table("events", "scripted", EVENTS, Map.of("id", sourceId, "bounded", "false")))
                    .calc(WITH_WATERMARK, () -> r -> new Object[]{r[0], r[1], r[2], r[2]}, "with watermark for " + name)
                    .watermark(2, 3)
                    .window(WindowSpec.tumble(2, true, WINDOW))
                    .exchange(0)
                    .windowAggregate(new int[]{0}, 4, 5, true, false, List.of(COUNT_ALL), EmitSpec.ON_WATERMARK,
                            COUNTS, null)
                    .sinkTo(table("counts_" + name, "collect", COUNTS, Map.of("id", UUID.randomUUID().toString())));
        }
        return b.build();
    }

    static EngineContext engine(Path stateDir) {
        return EngineContext.of(Map.of("checkpoint.interval", "1h", "worker.threads", "2", "parallelism", "2",
                "state.dir", stateDir.toString()));
    }

    JobInstance startReading(JobGraph graph, Path stateDir) throws Exception {
        JobInstance job = new JobInstance(graph, engine(stateDir));
        job.start();
        var listener = ScriptedSourceFactory.listener(sourceId);
        listener.shardsAssigned(List.of(new Shard("s0", rows(50), listener.checkpointedPosition("s0").orElse(0))));
        return job;
    }

    /** Every file under a directory with its size. */
    static Map<String, Long> files(Path dir) throws IOException {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                out.put(dir.relativize(p).toString(), Files.size(p));
            }
        }
        return out;
    }

    @Test
    void aSecondInstanceIsRefusedAndChangesNothingAndTheNextOneAfterTheFirstEndedResumes(@TempDir Path dir)
            throws Exception {
        JobGraph graph = graph(COUNT_ALL);
        JobInstance first = startReading(graph, dir);
        assertEquals(1, checkpoint(first));
        Path checkpoints = dir.resolve(JOB).resolve("checkpoints");
        Map<String, Long> before = files(checkpoints);

        JobInstance second = new JobInstance(graph, engine(dir));
        StateConflictException refused = assertThrows(StateConflictException.class, second::start);
        assertTrue(refused.getMessage().startsWith("job " + JOB + " is already running: its state directory "),
                refused.getMessage());
        assertTrue(refused.getMessage().contains("held by process " + ProcessHandle.current().pid() + " on host "),
                refused.getMessage());
        assertTrue(second.awaitTermination(Duration.ofSeconds(30)));
        assertEquals(JobInstance.State.FAILED, second.state());
        assertEquals(before, files(checkpoints), "the refused instance touched the checkpoints");
        assertTrue(Files.isDirectory(dir.resolve(JOB).resolve("work")), "the refused instance deleted the work dir");

        assertEquals(2, checkpoint(first));
        first.stop();   // checkpoint 3
        JSONObject meta = JSON.parseObject(Files.readString(checkpoints.resolve("chk-3").resolve("_metadata.json")));
        assertEquals("scripted", meta.getJSONObject("identity").getJSONObject("sources").getString("events"));
        assertEquals(1, meta.getJSONObject("identity").getJSONObject("operators").size(), meta.toString());

        // In the same process (as a restart does): the directory is free again, and the job resumes.
        JobInstance third = startReading(graph, dir);
        try {
            assertEquals(50, ScriptedSourceFactory.listener(sourceId).checkpointedPosition("s0").orElse(-1));
            assertEquals(4, checkpoint(third));
        } finally {
            third.stop();
        }
    }

    @Test
    void aChangedAggregationIsRefusedNamingItsStatementUntilTheJobIsReset(@TempDir Path dir) throws Exception {
        JobInstance first = startReading(graph(COUNT_ALL), dir);
        assertEquals(1, checkpoint(first));
        first.stop();

        JobInstance changed = new JobInstance(graph(COUNT_V), engine(dir));
        StateConflictException refused = assertThrows(StateConflictException.class, changed::start);
        String message = refused.getMessage();
        assertTrue(message.startsWith("job " + JOB + " cannot resume from checkpoint 2 in "), message);
        assertTrue(message.contains("the state of INSERT INTO counts (operator window-aggregate-"), message);
        assertTrue(message.contains("bin/rsql reset " + JOB + ", or run it with --from-scratch"), message);
        assertTrue(changed.awaitTermination(Duration.ofSeconds(30)));
        Path checkpoints = dir.resolve(JOB).resolve("checkpoints");
        assertTrue(Files.isRegularFile(checkpoints.resolve("chk-2").resolve("_metadata.json")),
                "the refused run deleted the checkpoint");

        assertEquals(1, JobInstance.reset(engine(dir), JOB));
        assertFalse(Files.exists(checkpoints));
        JobInstance fresh = startReading(graph(COUNT_V), dir);
        try {
            assertTrue(ScriptedSourceFactory.listener(sourceId).checkpointedPosition("s0").isEmpty());
            assertEquals(1, checkpoint(fresh));
        } finally {
            fresh.stop();
        }
    }

    @Test
    void aStatementAddedOrRemovedLeavesTheOthersTheirState(@TempDir Path dir) throws Exception {
        JobInstance first = startReading(statements("a", "b"), dir);
        assertEquals(1, checkpoint(first));
        first.stop();

        JobInstance fewer = startReading(statements("a"), dir);
        assertEquals(50, ScriptedSourceFactory.listener(sourceId).checkpointedPosition("s0").orElse(-1));
        assertEquals(3, checkpoint(fewer));
        fewer.stop();
        JobInstance more = startReading(statements("a", "c"), dir);
        try {
            assertEquals(50, ScriptedSourceFactory.listener(sourceId).checkpointedPosition("s0").orElse(-1));
            assertEquals(5, checkpoint(more));
        } finally {
            more.stop();
        }
    }

    @Test
    void resetIsRefusedWhileTheJobRuns(@TempDir Path dir) throws Exception {
        JobInstance running = startReading(graph(COUNT_ALL), dir);
        try {
            assertEquals(1, checkpoint(running));
            StateConflictException refused = assertThrows(StateConflictException.class,
                    () -> JobInstance.reset(engine(dir), JOB));
            assertTrue(refused.getMessage().contains("is already running"), refused.getMessage());
            assertTrue(Files.isRegularFile(dir.resolve(JOB).resolve("checkpoints").resolve("chk-1")
                    .resolve("_metadata.json")));
        } finally {
            running.stop();
        }
    }
}
