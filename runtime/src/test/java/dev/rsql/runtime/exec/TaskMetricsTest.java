package dev.rsql.runtime.exec;

import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.metrics.OperatorMetrics;
import dev.rsql.runtime.metrics.TaskMetrics;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.testing.KeyedWindowCount;
import dev.rsql.runtime.testing.ScriptedSourceFactory;
import dev.rsql.runtime.testing.ScriptedSourceFactory.Shard;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The per-task and per-operator counters a running job publishes for status and /metrics. */
class TaskMetricsTest {

    private static OperatorMetrics.Snapshot operator(TaskStatus task, String kind, int nth) {
        List<OperatorMetrics.Snapshot> ofKind = task.metrics.operators().stream()
                .filter(o -> o.kind().equals(kind)).collect(Collectors.toList());
        return ofKind.get(nth);
    }

    @Test
    void operatorsCountTheirRowsInAndOutAndTasksTheRowsTheyHandOn() throws Exception {
        String run = UUID.randomUUID().toString();
        Random random = new Random(20261201);
        List<List<String>> shards = new ArrayList<>();
        List<Integer> picked = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            List<String> payloads = new ArrayList<>();
            int n = 300 + random.nextInt(400);
            for (int i = 0; i < n; i++) {
                int id = random.nextInt(1000);
                payloads.add("{\"id\":" + id + ",\"v\":" + i + "}");
                if (id % 3 == 0) {
                    picked.add(id);
                }
            }
            shards.add(payloads);
        }
        ValuesSourceFactory.register(run, shards.get(0), shards.get(1));
        GraphBuilder b = new GraphBuilder("counted");
        GraphBuilder.Stream source = b.source(JobInstanceTest.table("events", "values", JobInstanceTest.EVENT,
                Map.of("id", run)));
        source.filter(r -> (Integer) r[0] % 3 == 0).sinkTo(JobInstanceTest.table("picked", "collect",
                JobInstanceTest.EVENT, Map.of("id", run + "-picked")));
        source.sinkTo(JobInstanceTest.table("all", "collect", JobInstanceTest.EVENT, Map.of("id", run + "-all")));

        JobInstance job = JobInstanceTest.run(b.build());
        assertEquals(JobInstance.State.FINISHED, job.state());
        assertEquals(picked.size(), CollectSinkFactory.rows(run + "-picked").size());
        long in = 0;
        long out = 0;
        long filtered = 0;
        for (TaskStatus t : job.status().tasks) {
            TaskMetrics.Snapshot m = t.metrics;
            OperatorMetrics.Snapshot src = operator(t, "Source", 0);
            OperatorMetrics.Snapshot calc = operator(t, "Calc", 0);
            assertEquals(t.recordsIn, src.recordsOut(), "the source hands on every record it reads");
            assertEquals(t.recordsIn, calc.recordsIn());
            long pickedHere = operator(t, "Sink", 0).recordsIn() + operator(t, "Sink", 1).recordsIn() - t.recordsIn;
            assertEquals(calc.recordsOut(), pickedHere, "the filter's rows are the picked sink's");
            assertEquals(t.recordsIn + calc.recordsOut(), m.recordsOut(), "rows out: both sinks'");
            assertEquals(t.rowsOut, m.recordsOut());
            assertTrue(m.busyNanos() > 0 && m.busyRatio() > 0 && m.busyRatio() <= 1, m.toString());
            assertEquals(0, m.lateRecords());
            in += t.recordsIn;
            out += m.recordsOut();
            filtered += calc.recordsOut();
        }
        assertEquals(shards.get(0).size() + shards.get(1).size(), in);
        assertEquals(picked.size(), filtered);
        assertEquals(in + picked.size(), out);
    }

    @Test
    void aRowSentToSeveralConsumersCountsOnceOutAndAUnionPassesRowsThrough() throws Exception {
        String run = UUID.randomUUID().toString();
        ValuesSourceFactory.register(run, JobInstanceTest.payloads(0, 700));
        GraphBuilder b = new GraphBuilder("fanned");
        GraphBuilder.Stream s = b.source(JobInstanceTest.table("events", "values", JobInstanceTest.EVENT,
                Map.of("id", run)));
        s.filter(r -> (Integer) r[0] % 2 == 0).sinkTo(JobInstanceTest.table("evens", "collect", JobInstanceTest.EVENT,
                Map.of("id", run + "-evens")));
        s.filter(r -> (Integer) r[0] < 500).union(s.filter(r -> (Integer) r[0] >= 500))
                .sinkTo(JobInstanceTest.table("all", "collect", JobInstanceTest.EVENT, Map.of("id", run + "-all")));
        JobInstance job = JobInstanceTest.run(b.build());
        assertEquals(JobInstance.State.FINISHED, job.state());
        TaskStatus t = job.status().tasks.get(0);
        assertEquals(700, t.recordsIn);
        assertEquals(700, operator(t, "Source", 0).recordsOut(), "once, though three filters read it");
        List<Long> filteredOut = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            assertEquals(700, operator(t, "Calc", i).recordsIn());
            filteredOut.add(operator(t, "Calc", i).recordsOut());
        }
        assertEquals(List.of(200L, 350L, 500L), filteredOut.stream().sorted().collect(Collectors.toList()));
        long sinkIn = operator(t, "Sink", 0).recordsIn() + operator(t, "Sink", 1).recordsIn();
        assertEquals(350 + 700, sinkIn, "evens, and every row through the union");
        assertTrue(t.metrics.operators().stream().noneMatch(o -> o.kind().equals("Union")), "a union is no operator");
        assertEquals(sinkIn, t.metrics.recordsOut());
    }

    @Test
    void rowsForClosedWindowsAreCountedLateAndCheckpointsAndRestoresTimed(@TempDir Path dir) throws Exception {
        String sourceId = UUID.randomUUID().toString();
        Random random = new Random(7);
        List<Object[]> rows = new ArrayList<>();
        long watermark = Long.MIN_VALUE;
        int late = 0;
        for (int i = 0; i < 500; i++) {
            // mostly ahead, now and then up to 25 s back: some of those land in windows already fired
            long ts = KeyedWindowCount.BASE + i * 1000L - (random.nextInt(10) == 0 ? random.nextInt(25_000) : 0);
            long end = ts - Math.floorMod(ts, KeyedWindowCount.WINDOW) + KeyedWindowCount.WINDOW;
            if (end - 1 <= watermark) {
                late++;
            }
            watermark = Math.max(watermark, ts);
            rows.add(new Object[]{"k" + random.nextInt(3), 1L, ts});
        }
        assertTrue(late > 5, "the input has late rows: " + late);
        EngineContext engine = EngineContext.of(Map.of("checkpoint.interval", "1h", "worker.threads", "2",
                "parallelism", "2", "state.dir", dir.toString()));
        JobInstance job = new JobInstance(KeyedWindowCount.graph("late", sourceId, sourceId + "-out", true), engine);
        job.start();
        Shard shard = new Shard("s0", rows, 0);
        ScriptedSourceFactory.listener(sourceId).shardsAssigned(List.of(shard));
        // every row read by the source task, and again by the partition tasks behind the exchange
        Await.until("all rows read", Duration.ofSeconds(30), () -> job.status().recordsIn() == 2L * rows.size());
        long checkpoint = job.checkpoint().get();
        int expectedLate = late;
        Await.until("late rows published", Duration.ofSeconds(30),
                () -> job.status().tasks.stream().mapToLong(t -> t.metrics.lateRecords()).sum() == expectedLate);
        // a task publishes its figures when its slice ends, which may be after the checkpoint completed
        Await.until("every task's checkpoint published", Duration.ofSeconds(30),
                () -> job.status().tasks.stream().allMatch(t -> t.metrics.checkpoints() == 1));
        JobStatus status = job.status();
        assertEquals(1, status.checkpoints.completed());
        assertEquals(checkpoint, status.checkpoints.lastId());
        assertTrue(status.checkpoints.lastSizeBytes() > 0 && status.checkpoints.stateSizeBytes() > 0,
                status.checkpoints.toString());
        for (TaskStatus t : status.tasks) {
            assertEquals(1, t.metrics.checkpoints(), t.id);
            assertTrue(t.metrics.lastCheckpointNanos() > 0, t.id);
            assertEquals(-1, t.metrics.restoreNanos(), "nothing to restore on a first run");
            if (t.id.startsWith("events#")) {
                assertEquals(watermark, t.metrics.watermark(), "the source's watermark: its largest event time");
            }
        }
        job.stop();

        JobInstance again = new JobInstance(KeyedWindowCount.graph("late", sourceId, sourceId + "-out", true),
                engine);
        again.start();
        try {
            ScriptedSourceFactory.listener(sourceId).shardsAssigned(List.of(new Shard("s0", rows, rows.size())));
            Await.until("state restored", Duration.ofSeconds(30), () -> again.status().tasks.stream()
                    .anyMatch(t -> t.metrics.restoreNanos() >= 0));
        } finally {
            again.stop();
        }
    }
}
