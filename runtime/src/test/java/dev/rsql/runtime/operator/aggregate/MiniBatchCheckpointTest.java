package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.aggregate.CountFunction;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.MiniBatchSpec;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.testing.KeyedWindowCount;
import dev.rsql.runtime.testing.ScriptedSourceFactory;
import dev.rsql.runtime.testing.ScriptedSourceFactory.Shard;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A mini-batch GROUP BY checkpointed while its batch holds rows, stopped, and restarted from its checkpoint: the
 * checkpoint folds the batch into state first, so after the restart every row is counted once (nothing lost with the
 * heap buffer, nothing doubled by the replay).
 */
class MiniBatchCheckpointTest {

    static final RowType COUNTS = RowType.builder().field("k", DataType.string())
            .field("cnt", DataType.of(DataType.Kind.BIGINT).notNull()).build();

    final String sourceId = UUID.randomUUID().toString();
    final String sinkId = UUID.randomUUID().toString();

    /** COUNT(*) per key in batches of up to a million rows or an hour: only checkpoints and the end cut them. */
    JobGraph graph() {
        return graph(sourceId, sinkId, List.of(new AggregateCall("COUNT(*)", () -> new CountFunction(-1))), COUNTS,
                new MiniBatchSpec(3_600_000, 1_000_000));
    }

    /** A bounded scripted source, GROUP BY its first field ({@code miniBatch} null: row by row), a collecting sink. */
    static JobGraph graph(String sourceId, String sinkId, List<AggregateCall> calls, RowType output,
                          MiniBatchSpec miniBatch) {
        GraphBuilder b = new GraphBuilder("groups");
        b.source(KeyedWindowCount.table("events", "scripted", KeyedWindowCount.EVENTS, Map.of("id", sourceId,
                        "bounded", "true")))
                .exchange(0)
                .groupAggregate(new int[] {0}, calls, output, 0, false, miniBatch)
                .sinkTo(KeyedWindowCount.table("counts", "collect", output, Map.of("id", sinkId)));
        return b.build();
    }

    static JobInstance start(JobGraph graph, Path stateDir) throws Exception {
        return start(graph, stateDir, Map.of());
    }

    /** The job on two worker threads, checkpointed only when asked, with the extra {@code settings}. */
    static JobInstance start(JobGraph graph, Path stateDir, Map<String, String> settings) throws Exception {
        Map<String, String> all = new HashMap<>(settings);
        all.putAll(Map.of("checkpoint.interval", "1h", "worker.threads", "2", "parallelism", "2",
                "state.dir", stateDir.toString()));
        JobInstance job = new JobInstance(graph, EngineContext.of(all));
        job.start();
        return job;
    }

    static List<Object[]> rows(Random r, int n, Map<String, Long> counts) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String k = "k" + r.nextInt(7);
            counts.merge(k, 1L, Long::sum);
            rows.add(new Object[] {k, 1L, KeyedWindowCount.BASE + i});
        }
        return rows;
    }

    @Test
    void aCheckpointMidBatchLosesAndDoublesNothing(@TempDir Path dir) throws Exception {
        Random random = new Random(141);
        Map<String, Long> expected = new TreeMap<>();
        JobGraph graph = graph();
        JobInstance first = start(graph, dir);
        List<Object[]> written = rows(random, 500, expected);
        Shard s0 = new Shard("s0", written, 0);
        ScriptedSourceFactory.listener(sourceId).shardsAssigned(List.of(s0));
        Await.until("the first rows read", Duration.ofSeconds(30), () -> s0.lag() == 0);
        assertTrue(CollectSinkFactory.rows(sinkId).isEmpty(), "the batch holds the rows");
        assertEquals(1, first.checkpoint().get(30, TimeUnit.SECONDS));
        assertEquals(expected.size(), CollectSinkFactory.rows(sinkId).size(), "checkpoint 1 folded the batch");
        for (Object[] row : rows(random, 300, expected)) {
            s0.append(row);
        }
        Await.until("the next rows read", Duration.ofSeconds(30), () -> s0.lag() == 0);
        first.stop();   // checkpoint 2, again with a batch in the heap

        JobInstance second = start(graph, dir);
        try {
            var listener = ScriptedSourceFactory.listener(sourceId);
            List<Object[]> all = new ArrayList<>(written);   // the shard appended to it
            all.addAll(rows(random, 200, expected));
            Shard resumed = new Shard("s0", all, listener.checkpointedPosition("s0").orElse(0));
            listener.shardsAssigned(List.of(resumed));
            listener.noMoreShards();
            resumed.end();
            assertTrue(second.awaitTermination(Duration.ofSeconds(30)));
        } finally {
            second.stop();
        }
        // Counts only grow: the last row per key is the final count, and every count a key reported is new.
        Map<String, Long> last = new TreeMap<>();
        Map<String, List<Long>> reported = new TreeMap<>();
        for (Row r : CollectSinkFactory.rows(sinkId)) {
            last.put((String) r.get(0), (Long) r.get(1));
            reported.computeIfAbsent((String) r.get(0), x -> new ArrayList<>()).add((Long) r.get(1));
        }
        assertEquals(expected, last);
        reported.forEach((k, counts) -> assertEquals(counts.stream().distinct().sorted().toList(), counts,
                "counts of " + k + " rise, each once"));
    }
}
