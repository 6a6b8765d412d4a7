package dev.rsql.sdk.dsl;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.sdk.dsl.Clicks.Click;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each DSL operation over random clicks (fixed seeds, out of order within the watermark delay, two source shards),
 * compared with the same computation over the list of clicks.
 */
class DslOperatorsTest {

    private static final long WINDOW = 5_000;

    @TempDir
    Path tmp;

    record Visit(String user, String page, int amount) {
    }

    record Avg(long sum, long count) {
    }

    record Pair(String userId, int left, int right) {
    }

    /** Builds a job over {@code clicks}, runs it to its end, returns what its collect sink received. */
    private List<Row> run(String name, Clicks clicks, Consumer<RStream<Click>> job, boolean eventTime)
            throws Exception {
        StreamBuilder b = new StreamBuilder(name);
        RStream<Click> in = b.source("clicks", Click.class, clicks.register(name));
        job.accept(eventTime ? in.assignTimestamps(c -> c.ts().toEpochMilli(), Duration.ofMillis(Clicks.DISORDER))
                : in);
        CollectSinkFactory.clear(name);
        TopologyRunner.run(b.build(), tmp.resolve(name));
        return CollectSinkFactory.rows(name);
    }

    private static Map<String, String> sink(String id) {
        return Map.of("connector", "collect", "id", id);
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Object::toString));
        return copy;
    }

    private static List<List<Object>> inserts(List<Row> rows) {
        for (Row r : rows) {
            assertEquals(RowKind.INSERT, r.kind(), () -> "an insert-only result has " + r);
        }
        return sorted(rows.stream().map(r -> Arrays.asList(r.fields())).collect(Collectors.toList()));
    }

    private static long windowStart(Click c, long size) {
        return c.ts().toEpochMilli() - Math.floorMod(c.ts().toEpochMilli(), size);
    }

    @Test
    void filterAndMap() throws Exception {
        Clicks clicks = new Clicks(1, 2, 300, 100);
        List<Row> out = run("filter-map", clicks, s -> s.filter(c -> c.amount() >= 50)
                .map(c -> new Visit(c.userId(), c.url().substring(1), c.amount() * 2), Visit.class)
                .to("visits", sink("filter-map")), false);
        List<List<Object>> expected = new ArrayList<>();
        for (Click c : clicks.all) {
            if (c.amount() >= 50) {
                expected.add(List.of(c.userId(), c.url().substring(1), c.amount() * 2));
            }
        }
        assertFalse(expected.isEmpty());
        assertEquals(sorted(expected), inserts(out));
    }

    @Test
    void flatMapAndUnion() throws Exception {
        Clicks clicks = new Clicks(2, 2, 200, 100);
        List<Row> out = run("flat-map", clicks, s -> {
            RStream<String> users = s.map(Click::userId, String.class);
            RStream<String> chars = s.flatMap(c -> Arrays.asList(c.url().split("")), String.class);
            users.union(chars).to("words", sink("flat-map"));
        }, false);
        List<List<Object>> expected = new ArrayList<>();
        for (Click c : clicks.all) {
            expected.add(List.of(c.userId()));
            for (String ch : c.url().split("")) {
                expected.add(List.of(ch));
            }
        }
        assertEquals(sorted(expected), inserts(out));
    }

    @Test
    void countPerKeyIsAnUpdateStream() throws Exception {
        Clicks clicks = new Clicks(3, 2, 200, 100);
        List<Row> out = run("count", clicks, s -> s.keyBy(Click::userId, String.class).count()
                .to("counts", sink("count")), false);
        Map<String, Long> expected = new TreeMap<>();
        clicks.all.forEach(c -> expected.merge(c.userId(), 1L, Long::sum));
        assertTrue(out.stream().anyMatch(r -> r.kind() == RowKind.UPDATE_BEFORE), "no -U in " + out.size() + " rows");
        assertEquals(sorted(expected.entrySet().stream().map(e -> List.<Object>of(e.getKey(), e.getValue()))
                .collect(Collectors.toList())), sorted(TopologyRunner.materialize(out)));
    }

    /** Into a table with a primary key, an update stream is materialized per key, as SQL does for such a sink. */
    @Test
    void anUpdateStreamIntoAKeyedSink() throws Exception {
        Clicks clicks = new Clicks(14, 2, 200, 100);
        List<Row> out = run("keyed-sink", clicks, s -> s.keyBy(Click::url, String.class).count()
                .to("counts", sink("keyed-sink"), List.of("key")), false);
        Map<String, Long> expected = new TreeMap<>();
        clicks.all.forEach(c -> expected.merge(c.url(), 1L, Long::sum));
        assertEquals(sorted(expected.entrySet().stream().map(e -> List.<Object>of(e.getKey(), e.getValue()))
                .collect(Collectors.toList())), sorted(TopologyRunner.materialize(out)));
        StreamBuilder b = new StreamBuilder("append-only");
        RStream<KeyValue<String, Long>> counts = b.source("clicks", Click.class, Map.of("connector", "values"))
                .keyBy(Click::url, String.class).count();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> counts.to("k",
                Map.of("connector", "kafka", "topic", "t", "properties.bootstrap.servers", "x:9092", "format", "csv")));
        assertTrue(e.getMessage().contains("primary key"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> counts.to("k", sink("x"), List.of("nope")));
    }

    @Test
    void sumMinMaxAndAggregatePerKey() throws Exception {
        Clicks clicks = new Clicks(4, 2, 200, 100);
        List<Row> sums = run("sum", clicks, s -> {
            GroupedStream<String, Click> byUser = s.keyBy(Click::userId, String.class);
            byUser.sum(Click::amount).to("sums", sink("sum"));
            byUser.max(Click::amount, Integer.class).to("maxima", sink("sum-max"));
            byUser.min(Click::url, String.class).to("minima", sink("sum-min"));
            byUser.aggregate(Aggregator.of(() -> new Avg(0, 0), (Click c, Avg a) -> new Avg(a.sum() + c.amount(),
                    a.count() + 1), null, a -> (double) a.sum() / a.count()), Avg.class, Double.class)
                    .to("averages", sink("sum-avg"));
        }, false);
        Map<String, List<Click>> byUser = clicks.all.stream().collect(Collectors.groupingBy(Click::userId));
        List<List<Object>> sum = new ArrayList<>();
        List<List<Object>> max = new ArrayList<>();
        List<List<Object>> min = new ArrayList<>();
        List<List<Object>> avg = new ArrayList<>();
        byUser.forEach((user, cs) -> {
            long total = cs.stream().mapToLong(Click::amount).sum();
            sum.add(List.of(user, total));
            max.add(List.of(user, cs.stream().mapToInt(Click::amount).max().getAsInt()));
            min.add(List.of(user, cs.stream().map(Click::url).min(Comparator.naturalOrder()).get()));
            avg.add(List.of(user, (double) total / cs.size()));
        });
        assertEquals(sorted(sum), sorted(TopologyRunner.materialize(sums)));
        assertEquals(sorted(max), sorted(TopologyRunner.materialize(CollectSinkFactory.rows("sum-max"))));
        assertEquals(sorted(min), sorted(TopologyRunner.materialize(CollectSinkFactory.rows("sum-min"))));
        assertEquals(sorted(avg), sorted(TopologyRunner.materialize(CollectSinkFactory.rows("sum-avg"))));
    }

    @Test
    void tumblingWindowCount() throws Exception {
        Clicks clicks = new Clicks(5, 2, 400, 50);
        List<Row> out = run("tumble", clicks, s -> s.keyBy(Click::userId, String.class)
                .window(Window.tumbling(Duration.ofMillis(WINDOW))).count().to("counts", sink("tumble")), true);
        assertEquals(sorted(withValues(clicksPerUserAndWindow(clicks))), inserts(out));
    }

    /** The clicks of each user in each tumbling window of {@code WINDOW} ms, by (user, start, end). */
    private static Map<List<Object>, Long> clicksPerUserAndWindow(Clicks clicks) {
        Map<List<Object>, Long> expected = new HashMap<>();
        for (Click c : clicks.all) {
            long ws = windowStart(c, WINDOW);
            expected.merge(List.of(c.userId(), ws, ws + WINDOW), 1L, Long::sum);
        }
        return expected;
    }

    /** A window's results have its window_time as event time: a second, larger window sums the first's counts. */
    @Test
    void cascadedWindows() throws Exception {
        Clicks clicks = new Clicks(11, 2, 400, 50);
        List<Row> out = run("cascade", clicks, s -> s.keyBy(Click::userId, String.class)
                .window(Window.tumbling(Duration.ofMillis(1_000))).count()
                .keyBy(Windowed::key, String.class)
                .window(Window.tumbling(Duration.ofMillis(WINDOW))).sum(Windowed::value)
                .to("sums", sink("cascade")), true);
        assertEquals(sorted(withValues(clicksPerUserAndWindow(clicks))), inserts(out));
    }

    @Test
    void hoppingWindowSumAndMax() throws Exception {
        Clicks clicks = new Clicks(6, 2, 300, 50);
        long slide = 2_000;
        long size = 6_000;
        run("hop", clicks, s -> {
            WindowStream<String, Click> w = s.keyBy(Click::url, String.class)
                    .window(Window.hopping(Duration.ofMillis(size), Duration.ofMillis(slide)));
            w.sum(Click::amount).to("sums", sink("hop"));
            w.max(Click::amount, Integer.class).to("maxima", sink("hop-max"));
        }, true);
        Map<List<Object>, Long> sums = new HashMap<>();
        Map<List<Object>, Integer> maxima = new HashMap<>();
        for (Click c : clicks.all) {
            for (long ws = windowStart(c, slide) - size + slide; ws <= c.ts().toEpochMilli(); ws += slide) {
                List<Object> key = List.of(c.url(), ws, ws + size);
                sums.merge(key, (long) c.amount(), Long::sum);
                maxima.merge(key, c.amount(), Math::max);
            }
        }
        assertEquals(sorted(withValues(sums)), inserts(CollectSinkFactory.rows("hop")));
        assertEquals(sorted(withValues(maxima)), inserts(CollectSinkFactory.rows("hop-max")));
    }

    @Test
    void sessionWindowAggregateMergesAccumulators() throws Exception {
        Clicks clicks = new Clicks(7, 1, 300, 400);
        long gap = 3_000;
        List<Row> out = run("session", clicks, s -> s.keyBy(Click::userId, String.class)
                .window(Window.session(Duration.ofMillis(gap)))
                .aggregate(Aggregator.of(() -> 0L, (Click c, Long a) -> a + c.amount(), Long::sum, a -> a),
                        Long.class, Long.class)
                .to("sessions", sink("session")), true);
        List<List<Object>> expected = new ArrayList<>();
        clicks.all.stream().collect(Collectors.groupingBy(Click::userId)).forEach((user, cs) -> {
            cs.sort(Comparator.comparing(Click::ts));
            long start = -1;
            long end = -1;
            long sum = 0;
            for (Click c : cs) {
                long t = c.ts().toEpochMilli();
                if (start >= 0 && t >= end) {
                    expected.add(List.of(user, sum, start, end));
                    start = -1;
                }
                if (start < 0) {
                    start = t;
                    sum = 0;
                }
                sum += c.amount();
                end = t + gap;
            }
            expected.add(List.of(user, sum, start, end));
        });
        assertEquals(sorted(expected), inserts(out));
    }

    @Test
    void mistakesFailWhenTheJobIsBuilt() {
        StreamBuilder b = new StreamBuilder("no-merge");
        GroupedStream<String, Click> byUser = b.source("clicks", Click.class, Map.of("connector", "values", "id", "x"))
                .assignTimestamps(c -> c.ts().toEpochMilli(), Duration.ZERO).keyBy(Click::userId, String.class);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> byUser
                .window(Window.session(Duration.ofSeconds(1))).aggregate(Aggregator.of(() -> 0L,
                        (Click c, Long a) -> a + 1), Long.class, Long.class));
        assertTrue(e.getMessage().contains("merge"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.source("c2", Click.class, Map.of("connector", "values"))
                .keyBy(Click::userId, String.class).window(Window.tumbling(Duration.ofSeconds(1))));
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> b.source("clicks", Visit.class, Map.of("connector", "values", "id", "x")));
        assertTrue(twice.getMessage().contains("read twice"), twice.getMessage());
    }

    @Test
    void processingTimeWindowCountsEveryElementOnce() throws Exception {
        Clicks clicks = new Clicks(8, 2, 200, 100);
        List<Row> out = run("proctime", clicks, s -> s.keyBy(Click::userId, String.class)
                .window(Window.tumbling(Duration.ofHours(1)).processingTime()).count()
                .to("counts", sink("proctime")), false);
        Map<String, Long> perUser = new HashMap<>();
        for (Row r : out) {
            assertEquals(RowKind.INSERT, r.kind());
            perUser.merge((String) r.get(0), (Long) r.get(1), Long::sum);
        }
        Map<String, Long> expected = new HashMap<>();
        clicks.all.forEach(c -> expected.merge(c.userId(), 1L, Long::sum));
        assertEquals(expected, perUser);
    }

    @Test
    void windowJoin() throws Exception {
        join("window-join", 9, false, true);
    }

    @Test
    void windowLeftJoin() throws Exception {
        join("window-left-join", 12, true, true);
    }

    @Test
    void intervalJoin() throws Exception {
        join("interval-join", 10, false, false);
    }

    @Test
    void intervalLeftJoin() throws Exception {
        join("interval-left-join", 13, true, false);
    }

    /**
     * Large clicks joined with small ones of the same user: in the same 5 s window, or with the small one from 1 s
     * before to 3 s after; a left join keeps the large clicks without a match.
     */
    private void join(String name, long seed, boolean leftJoin, boolean windowed) throws Exception {
        Clicks clicks = new Clicks(seed, 2, 150, 100);
        List<Row> out = run(name, clicks, s -> {
            GroupedStream<String, Click> big = s.filter(c -> c.amount() >= 70).keyBy(Click::userId, String.class);
            GroupedStream<String, Click> small = s.filter(c -> c.amount() < 10).keyBy(Click::userId, String.class);
            JoinedStream<String, Click, Click> joined = leftJoin ? big.leftJoin(small) : big.join(small);
            joined = windowed ? joined.window(Window.tumbling(Duration.ofMillis(WINDOW)))
                    : joined.between(Duration.ofMillis(-1_000), Duration.ofMillis(3_000));
            joined.apply((l, r) -> new Pair(l.userId(), l.amount(), r == null ? -1 : r.amount()), Pair.class)
                    .to("pairs", sink(name));
        }, true);
        List<List<Object>> expected = new ArrayList<>();
        boolean unmatched = false;
        for (Click l : clicks.all) {
            if (l.amount() < 70) {
                continue;
            }
            int matches = 0;
            for (Click r : clicks.all) {
                long d = r.ts().toEpochMilli() - l.ts().toEpochMilli();
                if (r.amount() < 10 && l.userId().equals(r.userId()) && (windowed
                        ? windowStart(l, WINDOW) == windowStart(r, WINDOW) : d >= -1_000 && d <= 3_000)) {
                    expected.add(List.of(l.userId(), l.amount(), r.amount()));
                    matches++;
                }
            }
            if (matches == 0 && leftJoin) {
                expected.add(List.of(l.userId(), l.amount(), -1));
                unmatched = true;
            }
        }
        assertFalse(expected.isEmpty());
        assertEquals(leftJoin, unmatched, "a left join's input has unmatched rows");
        assertEquals(sorted(expected), inserts(out));
    }

    /** Node ids name state and shuffle topics: every process building the job from the same code must get the same. */
    @Test
    void theSameCodeBuildsTheSameGraph() {
        List<String> graphs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            StreamBuilder b = new StreamBuilder("same");
            RStream<Click> in = b.source("clicks", Click.class, Map.of("connector", "values", "id", "same"))
                    .assignTimestamps(c -> c.ts().toEpochMilli(), Duration.ofSeconds(1));
            GroupedStream<String, Click> byUser = in.keyBy(Click::userId, String.class);
            byUser.window(Window.hopping(Duration.ofSeconds(4), Duration.ofSeconds(2))).count()
                    .map(w -> new Visit(w.key(), "w", w.value().intValue()), Visit.class)
                    .keyBy(Visit::page, String.class).count().to("a", sink("same-a"));
            byUser.join(in.keyBy(Click::userId, String.class)).between(Duration.ZERO, Duration.ofSeconds(1))
                    .apply((l, r) -> new Pair(l.userId(), l.amount(), r.amount()), Pair.class).to("b", sink("same-b"));
            graphs.add(b.build().describe());
        }
        assertEquals(graphs.get(0), graphs.get(1));
        assertFalse(graphs.get(0).contains("@"), graphs.get(0));
    }

    private static <V> List<List<Object>> withValues(Map<List<Object>, V> byKeyAndWindow) {
        List<List<Object>> rows = new ArrayList<>();
        byKeyAndWindow.forEach((k, v) -> rows.add(List.of(k.get(0), v, k.get(1), k.get(2))));
        return rows;
    }
}
