package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.aggregate.CountFunction;
import dev.rsql.runtime.aggregate.SumFunction;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.WindowSpec;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.testing.ValuesSourceFactory;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Window aggregations on the task engine (Java DSL), checked against a direct computation. */
class WindowAggregationTest {

    static final DataType BIGINT = DataType.of(DataType.Kind.BIGINT);
    static final DataType STRING = DataType.string();
    static final DataType TS = DataType.timestamp(3);

    static TableDescriptor table(String name, String connector, RowType type, Map<String, String> options) {
        List<Column> cols = new ArrayList<>();
        for (int i = 0; i < type.size(); i++) {
            cols.add(Column.physical(type.name(i), type.type(i)));
        }
        return new TableDescriptor(name, new TableSchema(cols, List.of()), connector, new Options(options));
    }

    static JobInstance run(GraphBuilder b, Path stateDir) throws Exception {
        JobInstance job = new JobInstance(b.build(), EngineContext.of(Map.of("checkpoint.interval", "50ms",
                "worker.threads", "2", "parallelism", "2", "state.dir", stateDir.toString())));
        job.start();
        assertTrue(job.awaitTermination(Duration.ofSeconds(60)), "job did not finish");
        if (job.failure() != null) {
            throw new AssertionError("job failed", job.failure());
        }
        return job;
    }

    static final RowType EVENTS = RowType.builder().field("k", STRING).field("v", BIGINT).field("ts", TS).build();
    static final RowType WITH_WM = RowType.builder().field("k", STRING).field("v", BIGINT).field("ts", TS)
            .field("wm", TS).build();

    static GraphBuilder.Stream source(GraphBuilder b, String id, long delay) {
        return b.source(table("events", "values", EVENTS, Map.of("id", id)))
                .map(WITH_WM, r -> new Object[]{r[0], r[1], r[2], (Long) r[2] - delay})
                .watermark(2, 3);
    }

    static RowType resultType() {
        return RowType.builder().field("k", STRING).field("cnt", BIGINT.notNull()).field("total", BIGINT)
                .field("ws", TS).field("we", TS).field("wt", TS).build();
    }

    static List<AggregateCall> countAndSum() {
        return List.of(new AggregateCall("COUNT(*)", () -> new CountFunction(-1)),
                new AggregateCall("SUM(v)", () -> SumFunction.sum(1, BIGINT, BIGINT)));
    }

    @Test
    void tumblingAndHoppingWindowsOverOutOfOrderShards(@TempDir Path dir) throws Exception {
        Random rnd = new Random(42);
        List<List<String>> shards = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<long[]> events = new ArrayList<>();
        String[] keys = {"a", "b", "c", "d"};
        long base = 1_700_000_000_000L;
        for (int i = 0; i < 3000; i++) {
            long ts = base + i * 37L + rnd.nextInt(1800) - 900;   // out of order by less than the 2 s delay
            int k = rnd.nextInt(keys.length);
            long v = rnd.nextInt(100);
            events.add(new long[]{k, v, ts});
            shards.get(i % 3).add("{\"k\":\"" + keys[k] + "\",\"v\":" + v + ",\"ts\":" + ts + "}");
        }
        String id = UUID.randomUUID().toString();
        ValuesSourceFactory.register(id, shards.get(0), shards.get(1), shards.get(2));

        GraphBuilder b = new GraphBuilder("windows");
        source(b, id, 2000).window(WindowSpec.tumble(2, true, 5000)).exchange(0)
                .windowAggregate(new int[]{0}, 4, 5, true, false, countAndSum(), EmitSpec.ON_WATERMARK, resultType(), null)
                .sinkTo(table("tumble", "collect", resultType(), Map.of("id", id + "-tumble")));
        source(b, id, 2000).window(WindowSpec.hop(2, true, 2000, 6000)).exchange(0)
                .windowAggregate(new int[]{0}, 4, 5, true, false, countAndSum(), EmitSpec.ON_WATERMARK, resultType(), null)
                .sinkTo(table("hop", "collect", resultType(), Map.of("id", id + "-hop")));
        run(b, dir);

        assertEquals(expected(events, keys, 5000, 5000), actual(CollectSinkFactory.rows(id + "-tumble")));
        assertEquals(expected(events, keys, 2000, 6000), actual(CollectSinkFactory.rows(id + "-hop")));
    }

    /** key|start -> [count, sum] computed directly. */
    static Map<String, List<Long>> expected(List<long[]> events, String[] keys, long slide, long size) {
        Map<String, List<Long>> out = new TreeMap<>();
        for (long[] e : events) {
            long lastStart = e[2] - Math.floorMod(e[2], slide);
            for (long start = lastStart; start > e[2] - size; start -= slide) {
                List<Long> acc = out.computeIfAbsent(keys[(int) e[0]] + "|" + start, x -> new ArrayList<>(List.of(0L, 0L)));
                acc.set(0, acc.get(0) + 1);
                acc.set(1, acc.get(1) + e[1]);
            }
        }
        return out;
    }

    static Map<String, List<Long>> actual(List<Row> rows) {
        Map<String, List<Long>> out = new TreeMap<>();
        for (Row r : rows) {
            List<Long> prev = out.put(r.get(0) + "|" + r.get(3), List.of((Long) r.get(1), (Long) r.get(2)));
            assertEquals(null, prev, "one result per key and window: " + r);
            assertEquals((Long) r.get(4) - 1, r.get(5));
        }
        return out;
    }

    @Test
    void lateRowsOfClosedWindowsAreCountedButRowsOfOpenWindowsAreNot(@TempDir Path dir) throws Exception {
        String id = UUID.randomUUID().toString();
        // One shard, watermark = ts - 1000. Window [0, 5000) closes when the watermark reaches 4999 (row ts 5999).
        ValuesSourceFactory.register(id, List.of(
                "{\"k\":\"a\",\"v\":1,\"ts\":1000}",
                "{\"k\":\"a\",\"v\":1,\"ts\":5500}",      // watermark 4500: [0, 5000) still open
                "{\"k\":\"a\",\"v\":1,\"ts\":2000}",      // behind the watermark, but its window is open: counted
                "{\"k\":\"a\",\"v\":1,\"ts\":7000}",      // watermark 6000: [0, 5000) fires with 2
                "{\"k\":\"a\",\"v\":1,\"ts\":3000}",      // late: dropped
                "{\"k\":\"a\",\"v\":1,\"ts\":8000}"));
        RowType lateType = RowType.builder().field("k", STRING).field("ts", TS).field("window_end", TS).build();
        GraphBuilder b = new GraphBuilder("late");
        source(b, id, 1000).window(WindowSpec.tumble(2, true, 5000)).exchange(0)
                .windowAggregate(new int[]{0}, 4, 5, true, false, countAndSum(), EmitSpec.ON_WATERMARK, resultType(),
                        table("late", "collect", lateType, Map.of("id", id + "-late")))
                .sinkTo(table("out", "collect", resultType(), Map.of("id", id + "-out")));
        run(b, dir);
        Map<String, List<Long>> got = actual(CollectSinkFactory.rows(id + "-out"));
        assertEquals(List.of(2L, 2L), got.get("a|0"));
        assertEquals(List.of(3L, 3L), got.get("a|5000"));
        List<Row> late = CollectSinkFactory.rows(id + "-late");
        assertEquals(1, late.size());
        assertEquals(3000L, late.get(0).get(1));
        assertEquals(5000L, late.get(0).get(2));
    }

    @Test
    void sessionsArePerKeyAndMergeWhenARowBridgesThem(@TempDir Path dir) throws Exception {
        String id = UUID.randomUUID().toString();
        ValuesSourceFactory.register(id, List.of(
                "{\"k\":\"a\",\"v\":1,\"ts\":1000}",
                "{\"k\":\"b\",\"v\":10,\"ts\":1500}",    // interleaved key: its own session
                "{\"k\":\"a\",\"v\":2,\"ts\":4000}",     // a: [1000,3000) and [4000,6000) separate (gap 2 s)
                "{\"k\":\"a\",\"v\":4,\"ts\":2800}",     // bridges a's sessions: [1000, 6000) with 7
                "{\"k\":\"b\",\"v\":20,\"ts\":9000}",    // b: a second session
                "{\"k\":\"a\",\"v\":8,\"ts\":20000}"));
        GraphBuilder b = new GraphBuilder("sessions");
        source(b, id, 5000).window(WindowSpec.session(2, true, 2000)).exchange(0)
                .windowAggregate(new int[]{0}, 4, 5, true, true, countAndSum(), EmitSpec.ON_WATERMARK, resultType(), null)
                .sinkTo(table("out", "collect", resultType(), Map.of("id", id + "-out")));
        run(b, dir);
        Map<String, String> got = new TreeMap<>();
        for (Row r : CollectSinkFactory.rows(id + "-out")) {
            got.put(r.get(0) + "[" + r.get(3) + "," + r.get(4) + ")", r.get(1) + "/" + r.get(2));
        }
        Map<String, String> expected = new HashMap<>();
        expected.put("a[1000,6000)", "3/7");
        expected.put("a[20000,22000)", "1/8");
        expected.put("b[1500,3500)", "1/10");
        expected.put("b[9000,11000)", "1/20");
        assertEquals(new TreeMap<>(expected), got);
    }
}
