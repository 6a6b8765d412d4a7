package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.aggregate.CountFunction;
import dev.rsql.runtime.aggregate.DistinctArguments;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.graph.JobGraph;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A row-by-row GROUP BY with COUNT(*) and COUNT(DISTINCT v), whose groups' rows and distinct values are cached in the
 * heap (a cache smaller than the groups and values, so that entries are also written back on eviction), checkpointed,
 * stopped and restarted from its checkpoint: every change reached the checkpoint, so after the restart every row is
 * counted once.
 */
class GroupAggregateCheckpointTest {

    static final DataType BIGINT = DataType.of(DataType.Kind.BIGINT);
    static final RowType COUNTS = RowType.builder().field("k", DataType.string()).field("cnt", BIGINT.notNull())
            .field("vs", BIGINT.notNull()).build();

    final String sourceId = UUID.randomUUID().toString();
    final String sinkId = UUID.randomUUID().toString();

    JobGraph graph() {
        return MiniBatchCheckpointTest.graph(sourceId, sinkId, List.of(
                new AggregateCall("COUNT(*)", () -> new CountFunction(-1)),
                new AggregateCall("COUNT(DISTINCT v)", () -> new CountFunction(1), -1,
                        new DistinctArguments(List.of(1), List.of(BIGINT)))), COUNTS, null);
    }

    /** With a cache of 3 entries per state. */
    static JobInstance start(JobGraph graph, Path stateDir) throws Exception {
        return MiniBatchCheckpointTest.start(graph, stateDir, Map.of("group.state-cache.keys", "3"));
    }

    /** Rows over 7 keys and 40 values; the expected count and distinct values of each key. */
    static List<Object[]> rows(Random r, int n, Map<String, Long> counts, Map<String, Set<Long>> values) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String k = "k" + r.nextInt(7);
            long v = r.nextInt(40);
            counts.merge(k, 1L, Long::sum);
            values.computeIfAbsent(k, x -> new HashSet<>()).add(v);
            rows.add(new Object[] {k, v, KeyedWindowCount.BASE + i});
        }
        return rows;
    }

    @Test
    void aRestartFromACheckpointCountsEveryRowOnce(@TempDir Path dir) throws Exception {
        Random random = new Random(7);
        Map<String, Long> counts = new TreeMap<>();
        Map<String, Set<Long>> values = new TreeMap<>();
        JobGraph graph = graph();
        JobInstance first = start(graph, dir);
        List<Object[]> written = rows(random, 500, counts, values);
        Shard s0 = new Shard("s0", written, 0);
        ScriptedSourceFactory.listener(sourceId).shardsAssigned(List.of(s0));
        Await.until("the first rows read", Duration.ofSeconds(30), () -> s0.lag() == 0);
        assertEquals(1, first.checkpoint().get(30, TimeUnit.SECONDS));
        for (Object[] row : rows(random, 300, counts, values)) {
            s0.append(row);
        }
        Await.until("the next rows read", Duration.ofSeconds(30), () -> s0.lag() == 0);
        first.stop();   // checkpoint 2, with changes in the caches

        JobInstance second = start(graph, dir);
        try {
            var listener = ScriptedSourceFactory.listener(sourceId);
            List<Object[]> all = new ArrayList<>(written);   // the shard appended to it
            all.addAll(rows(random, 200, counts, values));
            Shard resumed = new Shard("s0", all, listener.checkpointedPosition("s0").orElse(0));
            listener.shardsAssigned(List.of(resumed));
            listener.noMoreShards();
            resumed.end();
            assertEquals(true, second.awaitTermination(Duration.ofSeconds(30)));
        } finally {
            second.stop();
        }
        Map<String, Long> lastCount = new TreeMap<>();
        Map<String, Long> lastDistinct = new TreeMap<>();
        for (Row r : CollectSinkFactory.rows(sinkId)) {
            lastCount.put((String) r.get(0), (Long) r.get(1));
            lastDistinct.put((String) r.get(0), (Long) r.get(2));
        }
        assertEquals(counts, lastCount);
        Map<String, Long> distinct = new TreeMap<>();
        values.forEach((k, vs) -> distinct.put(k, (long) vs.size()));
        assertEquals(distinct, lastDistinct);
    }
}
