package dev.rsql.planner;

import dev.rsql.planner.TimedRows.Timed;
import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;

import static dev.rsql.planner.TimedRows.BASE;
import static dev.rsql.planner.TimedRows.all;
import static dev.rsql.planner.TimedRows.generate;
import static dev.rsql.planner.TimedRows.table;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Window joins on window table functions over random out-of-order inputs, compared with a join per window here. */
class WindowJoinSqlTest {

    private static final String COLUMNS = "lws TIMESTAMP(3), ak INT, aid BIGINT, rws TIMESTAMP(3), bk INT, bid BIGINT";

    /** A row in one of its windows. */
    private record InWindow(Timed row, long start) {
    }

    private static List<InWindow> windows(List<Timed> rows, Function<Long, List<Long>> starts) {
        List<InWindow> out = new ArrayList<>();
        rows.forEach(r -> starts.apply(r.ts()).forEach(s -> out.add(new InWindow(r, s))));
        return out;
    }

    /** Rows of equal windows and keys, then the unmatched rows of outer sides, as sorted text. */
    private static List<String> expected(List<Timed> a, List<Timed> b, Function<Long, List<Long>> starts,
                                         boolean leftOuter, boolean rightOuter) {
        List<InWindow> l = windows(a, starts);
        List<InWindow> r = windows(b, starts);
        List<String> out = new ArrayList<>();
        boolean[] rightMatched = new boolean[r.size()];
        for (InWindow x : l) {
            boolean matched = false;
            for (int j = 0; j < r.size(); j++) {
                InWindow y = r.get(j);
                if (x.start() == y.start() && x.row().k() != null && x.row().k().equals(y.row().k())) {
                    out.add(RandomEvents.text(x.start(), x.row().k(), x.row().id(), y.start(), y.row().k(),
                            y.row().id()));
                    matched = true;
                    rightMatched[j] = true;
                }
            }
            if (!matched && leftOuter) {
                out.add(RandomEvents.text(x.start(), x.row().k(), x.row().id(), null, null, null));
            }
        }
        for (int j = 0; j < r.size(); j++) {
            if (!rightMatched[j] && rightOuter) {
                InWindow y = r.get(j);
                out.add(RandomEvents.text(null, null, null, y.start(), y.row().k(), y.row().id()));
            }
        }
        out.sort(null);
        return out;
    }

    private static String query(String sinkName, String type, String window) {
        return "INSERT INTO " + sinkName + " SELECT L.window_start, L.k, L.id, R.window_start, R.k, R.id FROM TABLE("
                + window.replace("$t", "a") + ") L " + type + " JOIN TABLE(" + window.replace("$t", "b") + ") R"
                + " ON L.window_start = R.window_start AND L.window_end = R.window_end AND L.k = R.k;\n";
    }

    /** TUMBLE windows: INNER, LEFT, RIGHT and FULL; HOP windows: FULL (a row joins in each of its windows). */
    @Test
    void windowJoinsOfOutOfOrderStreams() throws Exception {
        Random r = new Random(71);
        List<List<Timed>> a = generate(r, 3, 150, 6, 200);
        List<List<Timed>> b = generate(r, 3, 150, 6, 200);
        String tumble = "TUMBLE(TABLE $t, DESCRIPTOR(ts), INTERVAL '5' SECOND)";
        String hop = "HOP(TABLE $t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '4' SECOND)";
        StringBuilder script = new StringBuilder(table("a", a, "") + table("b", b, ""));
        for (String type : List.of("inner", "left", "right", "full")) {
            script.append(sink(type + "_out", COLUMNS)).append(query(type + "_out", type, tumble));
        }
        script.append(sink("hop_out", COLUMNS)).append(query("hop_out", "full", hop));
        String cumulate = "CUMULATE(TABLE $t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)";
        script.append(sink("cumulate_out", COLUMNS)).append(query("cumulate_out", "inner", cumulate)
                .replace("L.window_start,", "L.window_end,").replace("R.window_start, R.k", "R.window_end, R.k"));
        Map<String, List<Row>> out = run(script.toString(), "inner_out", "left_out", "right_out", "full_out",
                "hop_out", "cumulate_out");
        Function<Long, List<Long>> tumbling = ts -> List.of(ts - Math.floorMod(ts, 5000L));
        Function<Long, List<Long>> hopping = ts -> {
            long last = ts - Math.floorMod(ts, 2000L);
            return List.of(last - 2000, last);
        };
        List<String> inner = expected(all(a), all(b), tumbling, false, false);
        assertTrue(inner.size() > 100, "matches: " + inner.size());
        assertEquals(inner, Changelog.materialize(out.get("inner_out")));
        assertEquals(expected(all(a), all(b), tumbling, true, false), Changelog.materialize(out.get("left_out")));
        assertEquals(expected(all(a), all(b), tumbling, false, true), Changelog.materialize(out.get("right_out")));
        assertEquals(expected(all(a), all(b), tumbling, true, true), Changelog.materialize(out.get("full_out")));
        assertEquals(expected(all(a), all(b), hopping, true, true), Changelog.materialize(out.get("hop_out")));
        // Identified by their end here: cumulating windows of one period share their start.
        Function<Long, List<Long>> cumulating = ts -> {
            long start = ts - Math.floorMod(ts, 6000L);
            List<Long> ends = new ArrayList<>();
            for (long end = start + 2000; end <= start + 6000; end += 2000) {
                if (end > ts) {
                    ends.add(end);
                }
            }
            return ends;
        };
        assertEquals(expected(all(a), all(b), cumulating, false, false),
                Changelog.materialize(out.get("cumulate_out")));
    }

    /**
     * A window join of two window aggregations, as in Nexmark q8: the aggregations' window columns are the windows
     * joined on, so the join holds each window's results only until the watermark passes its end.
     */
    @Test
    void windowAggregationsJoinOnTheirWindows() throws Exception {
        Random r = new Random(72);
        List<List<Timed>> a = generate(r, 3, 150, 5, 200);
        List<List<Timed>> b = generate(r, 3, 150, 5, 200);
        String counts = "SELECT k, window_start AS ws, window_end AS we, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE $t,"
                + " DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY k, window_start, window_end";
        String script = table("a", a, "") + table("b", b, "")
                + sink("o", "k INT, ws TIMESTAMP(3), an BIGINT, bn BIGINT")
                + "INSERT INTO o SELECT A.k, A.ws, A.n, B.n FROM (" + counts.replace("$t", "a") + ") A JOIN ("
                + counts.replace("$t", "b") + ") B ON A.k = B.k AND A.ws = B.ws AND A.we = B.we;\n";
        String plan = new ScriptPlanner(PlannerContext.defaults()).plan("t", script.replace("${RUN}", "plan"))
                .physicalPlans().get(0);
        assertTrue(plan.contains("WindowJoin(joinType=[inner], leftKeys=[k, ws, we]"), plan);
        Map<String, long[]> expected = new java.util.TreeMap<>();
        for (int side = 0; side < 2; side++) {
            for (Timed x : all(side == 0 ? a : b)) {
                if (x.k() != null) {
                    expected.computeIfAbsent(x.k() + "|" + (x.ts() - Math.floorMod(x.ts(), 5000L)),
                            k -> new long[2])[side]++;
                }
            }
        }
        List<String> want = new ArrayList<>();
        expected.forEach((k, n) -> {
            if (n[0] > 0 && n[1] > 0) {
                want.add(k + "|" + n[0] + "|" + n[1]);
            }
        });
        want.sort(null);
        assertTrue(want.size() > 20, "windows on both sides: " + want.size());
        List<Row> rows = run(script, "o").get("o");
        assertEquals(want, Changelog.materialize(rows));
    }

    /** A window's rows are dropped once it is joined: a row of it arriving later is late, dropped, never padded. */
    @Test
    void rowsOfAJoinedWindowAreDropped() throws Exception {
        String a = "wj-a-" + UUID.randomUUID();
        String b = "wj-b-" + UUID.randomUUID();
        ValuesSourceFactory.register(a, List.of());
        ValuesSourceFactory.register(b, List.of());
        String ddl = "(k INT, id BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS withOffset(ts, 1000)) WITH (type ="
                + " 'values', bounded = 'false', id = '";
        try (TestJob job = new TestJob("late", "CREATE TABLE a " + ddl + a + "');\nCREATE TABLE b " + ddl + b
                + "');\n" + sink("o", COLUMNS)
                + query("o", "full", "TUMBLE(TABLE $t, DESCRIPTOR(ts), INTERVAL '10' SECOND)"))) {
            ValuesSourceFactory.append(a, 0, new Timed(1, 1, BASE + 1000).json(),
                    new Timed(2, 2, BASE + 30_000).json());
            ValuesSourceFactory.append(b, 0, new Timed(1, 10, BASE + 2000).json(),
                    new Timed(2, 20, BASE + 30_000).json());
            job.await("o", rows -> rows.stream().anyMatch(x -> RandomEvents.text(x.fields()).endsWith("|1|10")));
            ValuesSourceFactory.append(b, 0, new Timed(1, 11, BASE + 3000).json(),
                    new Timed(1, 12, BASE + 40_500).json(), new Timed(1, 13, BASE + 70_000).json());
            ValuesSourceFactory.append(a, 0, new Timed(1, 3, BASE + 40_000).json(),
                    new Timed(1, 4, BASE + 70_000).json());
            List<String> rows = job.await("o", x -> x.stream().anyMatch(y -> RandomEvents.text(y.fields())
                    .endsWith("|1|3|" + (BASE + 40_000) + "|1|12"))).stream()
                    .map(x -> RandomEvents.text(x.fields())).toList();
            assertFalse(rows.stream().anyMatch(x -> x.endsWith("|11")), rows.toString());
            assertEquals(1, rows.stream().filter(x -> x.endsWith("|1|10")).count(), rows.toString());
        }
    }

    /** EXPLAIN shows the node; windows that differ, and processing-time windows, are refused with the position. */
    @Test
    void explainShowsTheWindowJoinAndWrongWindowsAreRefused() {
        String ddl = table("a", List.of(List.of()), ", p AS PROCTIME()") + table("b", List.of(List.of()),
                ", p AS PROCTIME()") + "CREATE TABLE o (" + COLUMNS + ") WITH (type = 'collect');\n";
        String tumble = "TUMBLE(TABLE $t, DESCRIPTOR(ts), INTERVAL '5' SECOND)";
        String plan = new ScriptPlanner(PlannerContext.defaults()).plan("t", ddl + query("o", "left", tumble))
                .physicalPlans().get(0);
        assertTrue(plan.contains("WindowJoin(joinType=[left], leftKeys=[window_start, window_end, k], rightKeys="
                + "[window_start, window_end, k], window=[TUMBLE(DESCRIPTOR($2), 5000:INTERVAL SECOND)])"
                + " changelogMode=[I]"), plan);
        PlanningException differ = assertThrows(PlanningException.class, () -> new ScriptPlanner(
                PlannerContext.defaults()).plan("t", ddl + query("o", "inner", tumble).replaceFirst("'5'", "'6'")));
        assertTrue(differ.getMessage().startsWith("line 4, column 1: a window join needs the same windows on both"
                + " sides"), differ.getMessage());
        PlanningException proc = assertThrows(PlanningException.class, () -> new ScriptPlanner(
                PlannerContext.defaults()).plan("t", ddl + query("o", "inner", tumble.replace("(ts)", "(p)"))));
        assertTrue(proc.getMessage().contains("a window join needs event-time windows"), proc.getMessage());
    }
}
