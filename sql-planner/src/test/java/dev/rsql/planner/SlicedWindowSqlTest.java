package dev.rsql.planner;

import dev.rsql.planner.RandomEvents.Event;
import dev.rsql.planner.RandomEvents.Window;
import dev.rsql.runtime.data.Row;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HOP and CUMULATE windows aggregated by slices: randomized out-of-order input from three shards, several size/slide
 * ratios (a size that is not a multiple of the slide too), COUNT/SUM/MIN/MAX/AVG/COUNT DISTINCT, both SQL forms,
 * compared with the windows computed directly.
 */
class SlicedWindowSqlTest {

    private static final String AGGS = "COUNT(*), SUM(v), MIN(v), MAX(v), AVG(v), COUNT(DISTINCT s)";
    private static final String OUT = sink("o", "k VARCHAR, ws TIMESTAMP(3), we TIMESTAMP(3), c BIGINT, sv BIGINT,"
            + " mn BIGINT, mx BIGINT, av BIGINT, cd BIGINT");

    /** HOP in seconds. */
    private static String hopTvf(long slide, long size) {
        return "SELECT k, window_start, window_end, " + AGGS + " FROM TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '"
                + slide + "' SECOND, INTERVAL '" + size + "' SECOND)) GROUP BY window_start, window_end, k";
    }

    @Test
    void hopTableFunctionsOfSeveralRatios() throws Exception {
        long[][] slideSize = {{2, 6}, {4, 10}, {3, 3}, {5, 7}, {1, 12}};
        for (int i = 0; i < slideSize.length; i++) {
            long slide = slideSize[i][0];
            long size = slideSize[i][1];
            check(30 + i, hopTvf(slide, size), RandomEvents.hop(slide * 1000, size * 1000));
        }
    }

    @Test
    void hopGroupWindow() throws Exception {
        String query = "SELECT k, HOP_START(ts, INTERVAL '4' SECOND, INTERVAL '10' SECOND), HOP_END(ts, INTERVAL '4'"
                + " SECOND, INTERVAL '10' SECOND), " + AGGS + " FROM ev GROUP BY k, HOP(ts, INTERVAL '4' SECOND,"
                + " INTERVAL '10' SECOND)";
        check(40, query, RandomEvents.hop(4000, 10000));
        assertTrue(explain(query).contains(", sliced)"), explain(query));
    }

    @Test
    void cumulateTableFunction() throws Exception {
        check(41, "SELECT k, window_start, window_end, " + AGGS + " FROM TABLE(CUMULATE(TABLE ev, DESCRIPTOR(ts),"
                + " INTERVAL '2' SECOND, INTERVAL '8' SECOND)) GROUP BY k, window_start, window_end",
                RandomEvents.cumulate(2000, 8000));
    }

    @Test
    void processingTimeHopWindowsFireWhenABoundedInputEnds() throws Exception {
        List<List<Event>> shards = RandomEvents.generate(43, 2, 300);
        String query = "SELECT k, window_start, COUNT(*) FROM TABLE(HOP(TABLE ev, DESCRIPTOR(p), INTERVAL '30' MINUTE,"
                + " INTERVAL '1' HOUR)) GROUP BY k, window_start, window_end";
        Map<String, List<Row>> out = run(RandomEvents.eventTable(shards).replace("ts TIMESTAMP(3),",
                "ts TIMESTAMP(3), p AS PROCTIME(),") + sink("o", "k VARCHAR, ws TIMESTAMP(3), c BIGINT")
                + "INSERT INTO o " + query, "o");
        // Every row is in two windows of an hour every 30 minutes.
        Map<String, Long> counts = new TreeMap<>();
        for (Row r : out.get("o")) {
            counts.merge((String) r.get(0), (Long) r.get(2), Long::sum);
        }
        Map<String, Long> expected = new TreeMap<>();
        RandomEvents.all(shards).forEach(e -> expected.merge(e.k(), 2L, Long::sum));
        assertEquals(expected, counts);
    }

    @Test
    void aFilterOnAWindowColumnKeepsEveryRowInEachOfItsWindows() throws Exception {
        // Rows of windows starting on an odd second are dropped: this needs the rows per window, not per slice.
        String query = "SELECT k, window_start, window_end, " + AGGS + " FROM TABLE(HOP(TABLE ev, DESCRIPTOR(ts),"
                + " INTERVAL '1' SECOND, INTERVAL '3' SECOND)) WHERE EXTRACT(SECOND FROM window_start) % 2 = 0"
                + " GROUP BY window_start, window_end, k";
        Function<Long, List<Window>> hop = RandomEvents.hop(1000, 3000);
        check(42, query, ts -> hop.apply(ts).stream().filter(w -> Math.floorMod(w.start() / 1000, 60) % 2 == 0)
                .collect(Collectors.toList()));
        assertFalse(explain(query).contains("sliced"), explain(query));
    }

    @Test
    void explainSaysAHopIsSliced() {
        String plan = explain(hopTvf(5, 30));
        assertTrue(plan.contains("WindowAggregate(groupBy=[window_start, window_end, k], select=[") && plan.contains(
                ", sliced)"), plan);
        String session = explain("SELECT k, window_start, window_end, COUNT(*) FROM TABLE(SESSION(TABLE ev PARTITION"
                + " BY k, DESCRIPTOR(ts), INTERVAL '2' SECOND)) GROUP BY k, window_start, window_end");
        assertFalse(session.contains("sliced"), session);
    }

    private static String explain(String query) {
        String sink = query.contains(AGGS) ? OUT : sink("o", "k VARCHAR, ws TIMESTAMP(3), we TIMESTAMP(3), c BIGINT");
        String script = RandomEvents.eventTable(List.of(List.of())) + sink + "INSERT INTO o " + query;
        return new ScriptPlanner(PlannerContext.defaults()).plan("t", script.replace("${RUN}", "plan"))
                .physicalPlans().get(0);
    }

    /** Runs the query over random events and compares with windows assigned directly. */
    private static void check(long seed, String query, Function<Long, List<Window>> assigner) throws Exception {
        List<List<Event>> shards = RandomEvents.generate(seed, 3, 400);
        Map<String, List<Event>> groups = new TreeMap<>();
        for (Event e : RandomEvents.all(shards)) {
            for (Window w : assigner.apply(e.ts())) {
                groups.computeIfAbsent(text(e.k(), w.start(), w.end()), x -> new ArrayList<>()).add(e);
            }
        }
        List<String> expected = new ArrayList<>();
        groups.forEach((window, events) -> {
            List<Long> vs = events.stream().map(Event::v).filter(Objects::nonNull).collect(Collectors.toList());
            long sum = vs.stream().mapToLong(Long::longValue).sum();
            expected.add(window + "|" + text((long) events.size(), vs.isEmpty() ? null : sum,
                    vs.isEmpty() ? null : vs.stream().mapToLong(Long::longValue).min().getAsLong(),
                    vs.isEmpty() ? null : vs.stream().mapToLong(Long::longValue).max().getAsLong(),
                    vs.isEmpty() ? null : sum / vs.size(),
                    events.stream().map(Event::s).distinct().count()));
        });
        expected.sort(null);
        List<Row> rows = run(RandomEvents.eventTable(shards) + OUT + "INSERT INTO o " + query, "o").get("o");
        assertTrue(rows.stream().allMatch(r -> r.kind().isAccumulate()), "insert-only");
        assertEquals(expected, RandomEvents.texts(rows), query);
    }
}
