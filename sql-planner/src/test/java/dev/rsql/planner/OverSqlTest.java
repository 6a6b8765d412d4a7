package dev.rsql.planner;

import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OVER aggregations over randomized input from three shards, out of order within the watermark delay, on several
 * keys, compared with the windows computed here row by row.
 */
class OverSqlTest {

    private static final long BASE = 1_700_000_000_000L;
    private static final long DELAY = 2000;
    private static final String AGGS = "COUNT(*) OVER w, COUNT(v) OVER w, SUM(v) OVER w, MIN(v) OVER w,"
            + " MAX(v) OVER w, AVG(v) OVER w";
    private static final String COLUMNS = "k VARCHAR, v BIGINT, ts TIMESTAMP(3), c BIGINT, cv BIGINT, s BIGINT,"
            + " mn BIGINT, mx BIGINT, av BIGINT";

    /** One event; {@code v} is NULL now and then. */
    private record Event(String k, Long v, long ts) {
        String json() {
            return "{\"k\":\"" + k + "\",\"v\":" + v + ",\"ts\":" + ts + "}";
        }
    }

    /**
     * Events per shard whose times run forward with jitter below half the watermark delay, so none is late. With
     * {@code unique}, no two events of a key share a time (ROWS windows then have one order); else times are coarse,
     * so that many do (RANGE peers).
     */
    private static List<List<Event>> generate(long seed, int shards, int perShard, boolean unique) {
        Random r = new Random(seed);
        Set<String> used = new HashSet<>();
        List<List<Event>> out = new ArrayList<>();
        for (int shard = 0; shard < shards; shard++) {
            List<Event> events = new ArrayList<>();
            long t = BASE;
            for (int i = 0; i < perShard; i++) {
                t += unique ? r.nextInt(100) : 100L * r.nextInt(3);
                long ts = t - (unique ? r.nextInt((int) DELAY / 2) : 100L * r.nextInt(10));
                String k = "k" + r.nextInt(4);
                while (unique && !used.add(k + ts)) {
                    ts++;
                }
                events.add(new Event(k, r.nextInt(8) == 0 ? null : (long) r.nextInt(100), ts));
            }
            out.add(events);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static String table(List<List<Event>> shards) {
        String id = "over-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, shards.stream().map(events -> events.stream().map(Event::json).toList())
                .toArray(List[]::new));
        return "CREATE TABLE ev (k VARCHAR, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS withOffset(ts, " + DELAY
                + ")) WITH (type = 'values', id = '" + id + "');\n";
    }

    /**
     * Each event with COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(v), AVG(v) over its window: the events of its key
     * ordered by time; for ROWS the {@code preceding} ones before it (all: -1), for RANGE those at most
     * {@code preceding} ms older (all: -1), peers of the same time included.
     */
    private static List<String> expected(List<List<Event>> shards, boolean rows, long preceding) {
        return expected(shards, rows, preceding, true);
    }

    /** {@code partitioned}: PARTITION BY k, else one window over all keys. */
    private static List<String> expected(List<List<Event>> shards, boolean rows, long preceding,
                                         boolean partitioned) {
        List<Event> all = shards.stream().flatMap(List::stream)
                .sorted(Comparator.comparingLong(Event::ts)).toList();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            Event e = all.get(i);
            List<Event> key = all.stream().filter(x -> !partitioned || x.k().equals(e.k())).toList();
            int at = key.indexOf(e);
            List<Event> window = new ArrayList<>();
            for (int j = 0; j < key.size(); j++) {
                Event x = key.get(j);
                boolean in = rows ? j <= at && (preceding < 0 || at - j <= preceding)
                        : x.ts() <= e.ts() && (preceding < 0 || e.ts() - x.ts() <= preceding);
                if (in) {
                    window.add(x);
                }
            }
            List<Long> vs = window.stream().map(Event::v).filter(Objects::nonNull).toList();
            Long sum = vs.isEmpty() ? null : vs.stream().mapToLong(Long::longValue).sum();
            out.add(text(e.k(), e.v(), e.ts(), (long) window.size(), (long) vs.size(), sum,
                    vs.stream().min(Long::compare).orElse(null), vs.stream().max(Long::compare).orElse(null),
                    sum == null ? null : sum / vs.size()));
        }
        out.sort(null);
        return out;
    }

    private static List<String> runOver(List<List<Event>> shards, String window) throws Exception {
        List<Row> rows = run(table(shards) + sink("o", COLUMNS) + "INSERT INTO o SELECT k, v, ts, " + AGGS
                + " FROM ev WINDOW w AS (" + window + ");\n", "o").get("o");
        return RandomEvents.texts(rows);
    }

    @Test
    void rowsBetweenPrecedingAndCurrentRowOnEventTime() throws Exception {
        List<List<Event>> shards = generate(71, 3, 300, true);
        assertEquals(expected(shards, true, 3),
                runOver(shards, "PARTITION BY k ORDER BY ts ROWS BETWEEN 3 PRECEDING AND CURRENT ROW"));
    }

    @Test
    void rowsBetweenUnboundedPrecedingAndCurrentRowOnEventTime() throws Exception {
        List<List<Event>> shards = generate(72, 3, 300, true);
        assertEquals(expected(shards, true, -1),
                runOver(shards, "PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"));
    }

    @Test
    void rangeBetweenAnIntervalAndCurrentRowOnEventTime() throws Exception {
        List<List<Event>> shards = generate(73, 3, 300, false);
        assertEquals(expected(shards, false, 500), runOver(shards,
                "PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '0.5' SECOND PRECEDING AND CURRENT ROW"));
    }

    @Test
    void rangeUnboundedIsTheDefaultFrameOnEventTime() throws Exception {
        List<List<Event>> shards = generate(74, 3, 300, false);
        assertEquals(expected(shards, false, -1), runOver(shards, "PARTITION BY k ORDER BY ts"));
    }

    /** Without PARTITION BY, one window over every row (all in one task). */
    @Test
    void aWindowWithoutPartitionSpansAllRows() throws Exception {
        List<List<Event>> shards = generate(76, 3, 200, false);
        assertEquals(expected(shards, false, 300, false),
                runOver(shards, "ORDER BY ts RANGE BETWEEN INTERVAL '0.3' SECOND PRECEDING AND CURRENT ROW"));
    }

    /**
     * Several windows in one query: each is its own node, chained. Processing time orders rows by arrival, so only
     * what does not depend on the order is checked: per key, the unbounded counts are 1..n, the last n + 1 rows count
     * at most 3, the hour-long range (all rows arrive within it) counts every row up to the row's millisecond, peers
     * alike (each count c is shared by the c - c' rows of its millisecond, c' the count before), and the unbounded sum
     * at count n is the key's total.
     */
    @Test
    void processingTimeWindowsCountRowsInArrivalOrder() throws Exception {
        List<List<Event>> shards = generate(75, 3, 200, false);
        String id = "over-proc-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, shards.stream().map(events -> events.stream().map(Event::json).toList())
                .toArray(List[]::new));
        List<Row> rows = run("CREATE TABLE ev (k VARCHAR, v BIGINT, ts TIMESTAMP(3), p AS PROCTIME())"
                + " WITH (type = 'values', id = '" + id + "');\n"
                + sink("o", "k VARCHAR, c BIGINT, s BIGINT, c3 BIGINT, ch BIGINT")
                + "INSERT INTO o SELECT k, COUNT(*) OVER u, SUM(v) OVER u,"
                + " COUNT(*) OVER (PARTITION BY k ORDER BY p ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),"
                + " COUNT(*) OVER (PARTITION BY k ORDER BY p RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW)"
                + " FROM ev WINDOW u AS (PARTITION BY k ORDER BY p ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);\n",
                "o").get("o");
        Map<String, List<Event>> byKey = shards.stream().flatMap(List::stream)
                .collect(Collectors.groupingBy(Event::k));
        assertEquals(4, byKey.size());
        byKey.forEach((k, events) -> {
            List<Row> mine = rows.stream().filter(r -> r.get(0).equals(k)).toList();
            List<Long> upTo = new ArrayList<>();
            List<Long> capped = new ArrayList<>();
            for (long n = 1; n <= events.size(); n++) {
                upTo.add(n);
                capped.add(Math.min(n, 3));
            }
            assertEquals(upTo, mine.stream().map(r -> (Long) r.get(1)).sorted().toList(), k);
            assertEquals(capped, mine.stream().map(r -> (Long) r.get(3)).sorted().toList(), k);
            Map<Long, Long> peers = mine.stream().collect(Collectors.groupingBy(r -> (Long) r.get(4),
                    java.util.TreeMap::new, Collectors.counting()));
            long before = 0;
            for (Map.Entry<Long, Long> p : peers.entrySet()) {
                assertEquals(p.getKey() - before, (long) p.getValue(), k + ": rows counted " + p.getKey());
                before = p.getKey();
            }
            assertEquals(events.size(), before, k);
            long total = events.stream().map(Event::v).filter(Objects::nonNull).mapToLong(Long::longValue).sum();
            assertEquals(List.of(total), mine.stream().filter(r -> r.get(1).equals((long) events.size()))
                    .map(r -> r.get(2)).toList(), k);
        });
    }

    /**
     * One shard, so the watermark follows the rows exactly: the row at 3 s comes after watermark 4 s and is dropped
     * into the late-data table; the row at 4.5 s is still ahead of the watermark and counted in time order.
     */
    @Test
    void rowsBehindTheWatermarkAreDroppedAsLate() throws Exception {
        String id = "over-late-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, List.of(at(1000, 1), at(5000, 2), at(3000, 4), at(4500, 8), at(7000, 16)));
        Map<String, List<Row>> out = run("SET 'table.exec.late-data.table' = 'late_rows';\n"
                + "CREATE TABLE ev (k VARCHAR, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS withOffset(ts, 1000))"
                + " WITH (type = 'values', id = '" + id + "');\n"
                + sink("o", "ts TIMESTAMP(3), c BIGINT, s BIGINT")
                + sink("late_rows", "k VARCHAR, ts TIMESTAMP(3), watermark TIMESTAMP(3), window_start TIMESTAMP(3)")
                + "INSERT INTO o SELECT ts, COUNT(*) OVER w, SUM(v) OVER w FROM ev"
                + " WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW);\n",
                "o", "late_rows");
        assertEquals(List.of(text(BASE + 1000, 1L, 1L), text(BASE + 4500, 2L, 9L), text(BASE + 5000, 2L, 10L),
                text(BASE + 7000, 2L, 18L)), RandomEvents.texts(out.get("o")));
        assertEquals(List.of(text("a", BASE + 3000, BASE + 4000, null)), RandomEvents.texts(out.get("late_rows")));
    }

    private static String at(long offset, long v) {
        return "{\"k\":\"a\",\"v\":" + v + ",\"ts\":" + (BASE + offset) + "}";
    }

    private static final String EVENTS = "CREATE TABLE ev (k VARCHAR, v BIGINT, ts TIMESTAMP(3),"
            + " WATERMARK FOR ts AS withOffset(ts, 1000)) WITH (type = 'values', id = 'ev');\n"
            + "CREATE TABLE o (k VARCHAR, c BIGINT) WITH (type = 'collect');\n";

    /** ORDER BY a column that is not a time attribute fails at check, at the column in the OVER clause. */
    @Test
    void orderingByAColumnThatIsNoTimeAttributeFailsAtItsPosition() {
        String insert = "INSERT INTO o SELECT k, COUNT(*) OVER (PARTITION BY k ORDER BY v) FROM ev;";
        PlanTimeErrorsTest.assertError(EVENTS + insert, "line 3, column " + (insert.indexOf("ORDER BY v") + 10),
                "must be defined on a time attribute", "v is neither");
        String named = "INSERT INTO o SELECT k, SUM(v) OVER w FROM ev\n  WINDOW w AS (ORDER BY ts DESC);";
        PlanTimeErrorsTest.assertError(EVENTS + named, "line 4, column 25", "must be ascending");
        String following = "INSERT INTO o SELECT k, COUNT(*) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1"
                + " PRECEDING AND 1 FOLLOWING) FROM ev;";
        PlanTimeErrorsTest.assertError(EVENTS + following, "line 3, column " + (following.indexOf("ORDER BY") + 10),
                "end at CURRENT ROW");
    }

    /** Ranking functions and aggregates over one window are refused, with a hint. */
    @Test
    void rankingAndAggregatesOverOneWindowAreRefused() {
        PlanTimeErrorsTest.assertError(EVENTS + "INSERT INTO o SELECT k, COUNT(*) OVER w + ROW_NUMBER() OVER w FROM ev"
                + " WINDOW w AS (PARTITION BY k ORDER BY ts);", "line 3, column 1", "separate queries or views");
    }

    /**
     * An OVER aggregation needs an insert-only input: over a running GROUP BY it is refused at check, at the view's
     * query that produces the updates.
     */
    @Test
    void anUpdatingInputIsRefused() {
        PlanTimeErrorsTest.assertError(EVENTS + "CREATE VIEW sums AS SELECT k, ts, SUM(v) AS v FROM ev"
                + " GROUP BY k, ts;\nINSERT INTO o SELECT k, COUNT(*) OVER (PARTITION BY k ORDER BY ts) FROM sums;",
                "line 3, column 21", "doesn't support consuming update", "GroupAggregate");
    }

    /** EXPLAIN shows the window's frame and aggregates, insert-only. */
    @Test
    void explainShowsTheOverAggregate() {
        PlannedJob job = new ScriptPlanner(PlannerContext.defaults()).plan("t", EVENTS
                + "INSERT INTO o SELECT k, COUNT(*) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '1'"
                + " MINUTE PRECEDING AND CURRENT ROW) FROM ev;");
        String plan = String.join("\n", job.physicalPlans());
        assertTrue(plan.contains("OverAggregate(partitionBy=[k], orderBy=[ts], RANGE BETWEEN 60000 ms PRECEDING AND"
                + " CURRENT ROW, select=[COUNT()") && plan.contains("changelogMode=[I]"), plan);
    }

    /**
     * A partition without rows for the state TTL is forgotten: its next row starts a new window (Flink's idle state
     * retention).
     */
    @Test
    void idlePartitionsExpireAfterTheStateTtl() throws Exception {
        String id = "over-ttl-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, List.of());
        try (TestJob job = new TestJob("ttl", "SET 'table.exec.state.ttl' = '400 ms';\n"
                + "CREATE TABLE ev (k VARCHAR, v BIGINT, ts TIMESTAMP(3), p AS PROCTIME())"
                + " WITH (type = 'values', id = '" + id + "', bounded = 'false');\n"
                + sink("o", "k VARCHAR, c BIGINT, s BIGINT")
                + "INSERT INTO o SELECT k, COUNT(*) OVER w, SUM(v) OVER w FROM ev"
                + " WINDOW w AS (PARTITION BY k ORDER BY p ROWS BETWEEN 5 PRECEDING AND CURRENT ROW);\n")) {
            ValuesSourceFactory.append(id, 0, at(0, 1), at(0, 2));
            job.await("o", r -> r.size() == 2);
            long expired = System.currentTimeMillis() + 400;
            for (long now = System.currentTimeMillis(); now < expired; now = System.currentTimeMillis()) {
                Thread.sleep(expired - now);
            }
            ValuesSourceFactory.append(id, 0, at(0, 4), at(0, 8));
            List<Row> rows = job.await("o", r -> r.size() == 4);
            assertEquals(List.of(text("a", 1L, 1L), text("a", 2L, 3L), text("a", 1L, 4L), text("a", 2L, 12L)),
                    rows.stream().map(r -> text(r.fields())).toList());
        }
    }
}
