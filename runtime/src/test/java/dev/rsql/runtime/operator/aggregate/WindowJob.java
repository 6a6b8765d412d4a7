package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.aggregate.CountFunction;
import dev.rsql.runtime.aggregate.MinMaxFunction;
import dev.rsql.runtime.aggregate.SumFunction;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.testing.ScriptedSourceFactory;
import dev.rsql.runtime.testing.ScriptedSourceFactory.Shard;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

import static dev.rsql.runtime.testing.KeyedWindowCount.EVENTS;
import static dev.rsql.runtime.testing.KeyedWindowCount.WITH_WATERMARK;
import static dev.rsql.runtime.testing.KeyedWindowCount.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A window aggregation job for the window operator tests: rows {@code k, v, ts} from one scripted shard (so every
 * partition sees rows and watermarks in the shard's order), watermark {@code ts - delay} after each row, the windows
 * the test gives, COUNT(*), SUM(v), MIN(v), MAX(v) per key, results as {@code k|start|end|count|sum|min|max}, late rows
 * into a late-data table. Runs in one go, or stopped after some rows and restored from its checkpoint.
 */
final class WindowJob {

    static final DataType BIGINT = DataType.of(DataType.Kind.BIGINT);
    static final RowType RESULT = RowType.builder().field("k", DataType.string()).field("cnt", BIGINT.notNull())
            .field("total", BIGINT).field("smallest", BIGINT).field("biggest", BIGINT)
            .field("ws", DataType.timestamp(3)).field("we", DataType.timestamp(3)).field("wt", DataType.timestamp(3))
            .build();
    static final RowType LATE = RowType.builder().field("k", DataType.string()).field("ts", DataType.timestamp(3))
            .field("window_end", DataType.timestamp(3)).build();

    final String sourceId = UUID.randomUUID().toString();
    final String sinkId = UUID.randomUUID().toString();
    final String lateId = UUID.randomUUID().toString();
    final JobGraph graph;

    /**
     * @param windows from the stream with its watermark and the late-data table to the aggregation's output, e.g.
     *                {@code (s, late) -> s.window(spec).exchange(0).windowAggregate(...)} with {@link #aggregates}
     */
    WindowJob(String name, long delay, BiFunction<GraphBuilder.Stream, TableDescriptor, GraphBuilder.Stream> windows) {
        GraphBuilder b = new GraphBuilder(name);
        windows.apply(b.source(table("events", "scripted", EVENTS, Map.of("id", sourceId, "bounded", "true")))
                        .map(WITH_WATERMARK, r -> new Object[]{r[0], r[1], r[2], (Long) r[2] - delay})
                        .watermark(2, 3), table("late", "collect", LATE, Map.of("id", lateId)))
                .sinkTo(table("out", "collect", RESULT, Map.of("id", sinkId)));
        graph = b.build();
    }

    static List<AggregateCall> aggregates() {
        return List.of(new AggregateCall("COUNT(*)", () -> new CountFunction(-1)),
                new AggregateCall("SUM(v)", () -> SumFunction.sum(1, BIGINT, BIGINT)),
                new AggregateCall("MIN(v)", () -> new MinMaxFunction(1, BIGINT, false, false)),
                new AggregateCall("MAX(v)", () -> new MinMaxFunction(1, BIGINT, true, false)));
    }

    private JobInstance start(Path stateDir) throws Exception {
        JobInstance job = new JobInstance(graph, EngineContext.of(Map.of("checkpoint.interval", "1h",
                "worker.threads", "2", "parallelism", "2", "state.dir", stateDir.toString(),
                "window.state-cache.keys", "3")));
        job.start();
        return job;
    }

    /**
     * Runs the job over {@code rows}; when {@code stopAfter} is less than their number, the first run reads that many
     * rows, takes a checkpoint, reads a few more (covered by the checkpoint the stop takes) and stops, and a second run
     * restores from its checkpoint and reads the rest.
     */
    void run(List<Object[]> rows, int stopAfter, Path stateDir) throws Exception {
        CollectSinkFactory.clear(sinkId);
        CollectSinkFactory.clear(lateId);
        if (stopAfter < rows.size()) {
            JobInstance first = start(stateDir);
            Shard s0 = new Shard("s0", new ArrayList<>(rows.subList(0, stopAfter)), 0);
            ScriptedSourceFactory.listener(sourceId).shardsAssigned(List.of(s0));
            Await.until("the first rows read", Duration.ofSeconds(30), () -> s0.lag() == 0);
            assertEquals(1, first.checkpoint().get(30, TimeUnit.SECONDS));
            for (Object[] row : rows.subList(stopAfter, Math.min(rows.size(), stopAfter + 20))) {
                s0.append(row);
            }
            Await.until("more rows read", Duration.ofSeconds(30), () -> s0.lag() == 0);
            first.stop();
            assertNull(first.failure());
        }
        JobInstance job = start(stateDir);
        var listener = ScriptedSourceFactory.listener(sourceId);
        Shard s0 = new Shard("s0", rows, listener.checkpointedPosition("s0").orElse(0));
        listener.shardsAssigned(List.of(s0));
        listener.noMoreShards();
        s0.end();
        assertTrue(job.awaitTermination(Duration.ofSeconds(60)), "job did not finish");
        if (job.failure() != null) {
            throw new AssertionError("job failed", job.failure());
        }
    }

    /** The results, sorted; every result must be an insert (each window emitted once). */
    List<String> results() {
        List<Row> rows = CollectSinkFactory.rows(sinkId);
        assertTrue(rows.stream().allMatch(r -> r.kind().isAccumulate()), "insert-only: " + rows);
        return rows.stream().map(r -> result(r.get(0), (Long) r.get(5), (Long) r.get(6), (Long) r.get(1),
                (Long) r.get(2), (Long) r.get(3), (Long) r.get(4))).sorted().collect(Collectors.toList());
    }

    /** The late rows, as {@code k|ts|window end}, sorted. */
    List<String> lateRows() {
        return CollectSinkFactory.rows(lateId).stream().map(r -> r.get(0) + "|" + r.get(1) + "|" + r.get(2))
                .sorted().collect(Collectors.toList());
    }

    static String result(Object k, long start, long end, long count, Long sum, Long min, Long max) {
        return k + "|" + start + "|" + end + "|" + count + "|" + sum + "|" + min + "|" + max;
    }

    /** The result of a window of rows ({@code k, v, ts}), computed from the rows. */
    static String result(Object k, long start, long end, List<Object[]> rows) {
        List<Long> vs = rows.stream().map(r -> (Long) r[1]).filter(v -> v != null).collect(Collectors.toList());
        return result(k, start, end, rows.size(), vs.isEmpty() ? null : vs.stream().mapToLong(Long::longValue).sum(),
                vs.isEmpty() ? null : vs.stream().mapToLong(Long::longValue).min().getAsLong(),
                vs.isEmpty() ? null : vs.stream().mapToLong(Long::longValue).max().getAsLong());
    }
}
