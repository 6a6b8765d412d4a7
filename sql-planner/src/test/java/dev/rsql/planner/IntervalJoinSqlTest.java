package dev.rsql.planner;

import dev.rsql.planner.TimedRows.Timed;
import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.IntervalJoinNode;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

import static dev.rsql.planner.TimedRows.BASE;
import static dev.rsql.planner.TimedRows.all;
import static dev.rsql.planner.TimedRows.generate;
import static dev.rsql.planner.TimedRows.join;
import static dev.rsql.planner.TimedRows.table;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Interval joins over random out-of-order inputs on three shards each, compared with a nested loop written here. */
class IntervalJoinSqlTest {

    private static final String COLUMNS = "ak INT, aid BIGINT, bk INT, bid BIGINT";

    /** {@code b.ts BETWEEN a.ts - 1 s AND a.ts + 2 s} plus a residual condition, INNER, LEFT, RIGHT and FULL. */
    @Test
    void eventTimeIntervalJoinsOfOutOfOrderStreams() throws Exception {
        Random r = new Random(61);
        List<List<Timed>> a = generate(r, 3, 200, 8, 150);
        List<List<Timed>> b = generate(r, 3, 200, 8, 150);
        StringBuilder script = new StringBuilder(table("a", a, "") + table("b", b, ""));
        for (String type : List.of("inner", "left", "right", "full")) {
            script.append(sink(type + "_out", COLUMNS)).append("INSERT INTO ").append(type)
                    .append("_out SELECT a.k, a.id, b.k, b.id FROM a ").append(type).append(" JOIN b ON a.k = b.k")
                    .append(" AND b.ts BETWEEN a.ts - INTERVAL '1' SECOND AND a.ts + INTERVAL '2' SECOND")
                    .append(" AND a.id % 5 <> b.id % 5;\n");
        }
        // Strict bounds, written as a pair of comparisons the other way round.
        script.append(sink("strict", COLUMNS)).append("INSERT INTO strict SELECT a.k, a.id, b.k, b.id FROM a JOIN b")
                .append(" ON a.k = b.k AND a.ts > b.ts AND b.ts + INTERVAL '3' SECOND > a.ts;\n");
        // No equal keys: every row in one partition.
        script.append(sink("nokey", COLUMNS)).append("INSERT INTO nokey SELECT a.k, a.id, b.k, b.id FROM a LEFT JOIN b")
                .append(" ON a.ts BETWEEN b.ts - INTERVAL '0.1' SECOND AND b.ts AND a.k < b.k;\n");
        Map<String, List<Row>> out = run(script.toString(), "inner_out", "left_out", "right_out", "full_out",
                "strict", "nokey");
        java.util.function.BiPredicate<Timed, Timed> within = (x, y) -> y.ts() >= x.ts() - 1000
                && y.ts() <= x.ts() + 2000 && x.id() % 5 != y.id() % 5;
        List<String> inner = join(all(a), all(b), within, false, false);
        assertTrue(inner.size() > 200 && inner.size() < all(a).size() * all(b).size() / 20,
                "some pairs match: " + inner.size());
        assertEquals(inner, Changelog.materialize(out.get("inner_out")));
        assertEquals(join(all(a), all(b), within, true, false), Changelog.materialize(out.get("left_out")));
        assertEquals(join(all(a), all(b), within, false, true), Changelog.materialize(out.get("right_out")));
        assertEquals(join(all(a), all(b), within, true, true), Changelog.materialize(out.get("full_out")));
        assertEquals(join(all(a), all(b), (x, y) -> x.ts() > y.ts() && x.ts() < y.ts() + 3000, false, false),
                Changelog.materialize(out.get("strict")));
        List<String> nokey = new ArrayList<>();
        for (Timed x : all(a)) {
            List<Timed> matches = all(b).stream().filter(y -> x.ts() >= y.ts() - 100 && x.ts() <= y.ts()
                    && x.k() != null && y.k() != null && x.k() < y.k()).toList();
            matches.forEach(y -> nokey.add(RandomEvents.text(x.k(), x.id(), y.k(), y.id())));
            if (matches.isEmpty()) {
                nokey.add(RandomEvents.text(x.k(), x.id(), null, null));
            }
        }
        nokey.sort(null);
        assertTrue(nokey.stream().filter(x -> !x.endsWith("null")).count() > 50, "matches without keys");
        assertEquals(nokey, Changelog.materialize(out.get("nokey")));
        out.values().forEach(rows -> assertTrue(rows.stream().allMatch(x -> x.kind().isAccumulate()),
                "insert-only output"));
    }

    /**
     * The output keeps the left time attribute, and the output watermark is held back by the bounds: a tumbling
     * window over a LEFT interval join counts every row, NULL-padded ones included (emitted only when they expire).
     */
    @Test
    void anIntervalJoinFeedsAWindowOnItsTimeAttribute() throws Exception {
        Random r = new Random(62);
        List<List<Timed>> a = generate(r, 2, 200, 6, 150);
        List<List<Timed>> b = generate(r, 2, 200, 6, 150);
        List<Row> rows = run(table("a", a, "") + table("b", b, "")
                + "CREATE VIEW j AS SELECT a.ts AS ats, a.id, b.id AS bid FROM a LEFT JOIN b ON a.k = b.k"
                + " AND b.ts BETWEEN a.ts - INTERVAL '3' SECOND AND a.ts + INTERVAL '3' SECOND;\n"
                + sink("w", "ws TIMESTAMP(3), n BIGINT, padded BIGINT")
                + "INSERT INTO w SELECT window_start, COUNT(*), COUNT(*) - COUNT(bid) FROM TABLE(TUMBLE(TABLE j,"
                + " DESCRIPTOR(ats), INTERVAL '10' SECOND)) GROUP BY window_start, window_end;\n", "w").get("w");
        Map<Long, long[]> expected = new TreeMap<>();
        List<String> joined = join(all(a), all(b), (x, y) -> Math.abs(x.ts() - y.ts()) <= 3000, true, false);
        Map<Long, Long> timeOfA = new TreeMap<>();
        all(a).forEach(x -> timeOfA.put(x.id(), x.ts()));
        for (String j : joined) {
            String[] f = j.split("\\|");
            long ts = timeOfA.get(Long.parseLong(f[1]));
            long[] n = expected.computeIfAbsent(ts - Math.floorMod(ts, 10_000L), k -> new long[2]);
            n[0]++;
            n[1] += f[3].equals("null") ? 1 : 0;
        }
        assertTrue(expected.values().stream().anyMatch(n -> n[1] > 0), "some rows are padded");
        Map<Long, long[]> got = new TreeMap<>();
        rows.forEach(x -> got.put((Long) x.get(0), new long[] {(Long) x.get(1), (Long) x.get(2)}));
        assertEquals(text(expected), text(got));
    }

    private static String text(Map<Long, long[]> windows) {
        StringBuilder sb = new StringBuilder();
        windows.forEach((k, v) -> sb.append(k).append('=').append(v[0]).append('/').append(v[1]).append('\n'));
        return sb.toString();
    }

    /**
     * Processing-time interval joins: with bounds of an hour every pair of equal keys matches (the rows all arrive
     * within it); with bounds of one millisecond backwards in time (b strictly older than a), the left join pads
     * the rows that did not match once their range has passed, or when the bounded input ends.
     */
    @Test
    void processingTimeIntervalJoins() throws Exception {
        Random r = new Random(63);
        List<List<Timed>> a = generate(r, 2, 100, 8, 150);
        List<List<Timed>> b = generate(r, 2, 100, 8, 150);
        String proc = ", p AS PROCTIME()";
        Map<String, List<Row>> out = run(table("a", a, proc) + table("b", b, proc) + sink("wide", COLUMNS)
                + sink("left_out", COLUMNS)
                + "INSERT INTO wide SELECT a.k, a.id, b.k, b.id FROM a JOIN b ON a.k = b.k"
                + " AND a.p BETWEEN b.p - INTERVAL '1' HOUR AND b.p + INTERVAL '1' HOUR;\n"
                + "INSERT INTO left_out SELECT a.k, a.id, b.k, b.id FROM a LEFT JOIN b ON a.k = b.k"
                + " AND a.p BETWEEN b.p - INTERVAL '1' HOUR AND b.p + INTERVAL '1' HOUR AND a.id < 0;\n",
                "wide", "left_out");
        assertEquals(join(all(a), all(b), (x, y) -> true, false, false), Changelog.materialize(out.get("wide")));
        assertEquals(join(all(a), all(b), (x, y) -> false, true, false), Changelog.materialize(out.get("left_out")));
    }

    /**
     * State is dropped by the watermark: once it passes a row's range, a row of the other side that would have
     * matched it (arriving late) finds nothing, and the left join has emitted the row padded.
     */
    @Test
    void rowsBehindTheWatermarkNoLongerMatch() throws Exception {
        String a = "late-a-" + UUID.randomUUID();
        String b = "late-b-" + UUID.randomUUID();
        ValuesSourceFactory.register(a, List.of());
        ValuesSourceFactory.register(b, List.of());
        String ddl = "(k INT, id BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS withOffset(ts, 1000)) WITH (type ="
                + " 'values', bounded = 'false', id = '";
        try (TestJob job = new TestJob("late", "CREATE TABLE a " + ddl + a + "');\nCREATE TABLE b " + ddl + b
                + "');\n" + sink("o", COLUMNS) + "INSERT INTO o SELECT a.k, a.id, b.k, b.id FROM a LEFT JOIN b"
                + " ON a.k = b.k AND b.ts BETWEEN a.ts - INTERVAL '1' SECOND AND a.ts + INTERVAL '1' SECOND")) {
            ValuesSourceFactory.append(a, 0, new Timed(1, 1, BASE).json());
            // Both watermarks far past the first row's range: it expires unmatched, padded.
            ValuesSourceFactory.append(a, 0, new Timed(2, 2, BASE + 60_000).json());
            ValuesSourceFactory.append(b, 0, new Timed(2, 20, BASE + 60_000).json());
            job.await("o", rows -> rows.stream().anyMatch(x -> RandomEvents.text(x.fields()).equals("1|1|null|null")));
            // A late row that would have matched the first finds it gone; the next row of its key still joins.
            ValuesSourceFactory.append(b, 0, new Timed(1, 10, BASE + 500).json(), new Timed(1, 11, BASE + 60_500)
                    .json());
            ValuesSourceFactory.append(a, 0, new Timed(1, 3, BASE + 60_400).json());
            List<String> rows = job.await("o", x -> x.stream().anyMatch(y -> RandomEvents.text(y.fields())
                    .equals("1|3|1|11"))).stream().map(x -> RandomEvents.text(x.fields())).sorted().toList();
            assertEquals(List.of("1|1|null|null", "1|3|1|11", "2|2|2|20"), rows);
        }
    }

    /** EXPLAIN shows the node and its bounds; updating inputs are refused at plan time, with the position. */
    @Test
    void explainShowsTheIntervalJoinAndUpdatingInputsAreRefused() {
        String ddl = table("a", List.of(List.of()), "") + table("b", List.of(List.of()), "")
                + "CREATE TABLE o (" + COLUMNS + ") WITH (type = 'collect');\n";
        PlannedJob job = new ScriptPlanner(PlannerContext.defaults()).plan("t", ddl + "INSERT INTO o SELECT a.k, a.id,"
                + " b.k, b.id FROM a FULL JOIN b ON a.k = b.k AND a.ts BETWEEN b.ts AND b.ts + INTERVAL '5' SECOND");
        String plan = job.physicalPlans().get(0);
        assertTrue(plan.contains("IntervalJoin(joinType=[full], leftKeys=[k], rightKeys=[k], rowtime=[left.ts -"
                + " right.ts BETWEEN 0 AND 5000 ms]) changelogMode=[I]"), plan);
        assertEquals(5000, ScriptPlannerTest.nodes(job.graph(), IntervalJoinNode.class).get(0).watermarkDelay());
        PlanningException empty = assertThrows(PlanningException.class, () -> new ScriptPlanner(
                PlannerContext.defaults()).plan("t", ddl + "INSERT INTO o SELECT a.k, a.id, b.k, b.id FROM a JOIN b"
                + " ON a.k = b.k AND a.ts > b.ts AND a.ts < b.ts + INTERVAL '0.001' SECOND"));
        assertTrue(empty.getMessage().startsWith("line 4, column 1: the time bounds of an interval join leave no"
                + " interval"), empty.getMessage());
        PlanningException e = assertThrows(PlanningException.class, () -> new ScriptPlanner(PlannerContext.defaults())
                .plan("t", ddl + "INSERT INTO o SELECT c.k, c.n, b.k, b.id FROM (SELECT k, ts, COUNT(*) AS n FROM a"
                        + " GROUP BY k, ts) c JOIN b ON c.k = b.k"
                        + " AND c.ts BETWEEN b.ts AND b.ts + INTERVAL '5' SECOND"));
        assertTrue(e.getMessage().contains("line 4, column 1") && e.getMessage().contains("IntervalJoin(joinType=["
                + "inner]") && e.getMessage().contains("doesn't support consuming update"), e.getMessage());
    }
}
