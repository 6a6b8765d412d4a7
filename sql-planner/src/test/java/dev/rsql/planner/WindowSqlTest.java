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

import static dev.rsql.planner.RandomEvents.BASE;
import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.RandomEvents.texts;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every window kind, in its group-window and table-function forms, over randomized out-of-order input from three
 * shards, compared with a direct computation of the same windows.
 */
class WindowSqlTest {

    private static final String AGGS = "COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(v)";
    private static final String OUT = sink("o", "k VARCHAR, ws TIMESTAMP(3), we TIMESTAMP(3), c BIGINT, cv BIGINT,"
            + " sv BIGINT, mn BIGINT, mx BIGINT");

    @Test
    void tumblingGroupWindow() throws Exception {
        check(11, "SELECT k, TUMBLE_START(ts, INTERVAL '5' SECOND), TUMBLE_END(ts, INTERVAL '5' SECOND), " + AGGS
                + " FROM ev GROUP BY TUMBLE(ts, INTERVAL '5' SECOND), k", RandomEvents.tumble(5000));
    }

    @Test
    void hoppingGroupWindow() throws Exception {
        check(12, "SELECT k, HOP_START(ts, INTERVAL '2' SECOND, INTERVAL '6' SECOND), HOP_END(ts, INTERVAL '2' SECOND,"
                + " INTERVAL '6' SECOND), " + AGGS + " FROM ev GROUP BY k, HOP(ts, INTERVAL '2' SECOND, INTERVAL '6' SECOND)",
                RandomEvents.hop(2000, 6000));
    }

    @Test
    void sessionGroupWindow() throws Exception {
        checkSessions(13, "SELECT k, SESSION_START(ts, INTERVAL '2' SECOND), SESSION_END(ts, INTERVAL '2' SECOND), "
                + AGGS + " FROM ev GROUP BY k, SESSION(ts, INTERVAL '2' SECOND)");
    }

    @Test
    void tumblingTableFunction() throws Exception {
        check(14, "SELECT k, window_start, window_end, " + AGGS + " FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts),"
                + " INTERVAL '5' SECOND)) GROUP BY k, window_start, window_end", RandomEvents.tumble(5000));
    }

    @Test
    void hoppingTableFunction() throws Exception {
        check(15, "SELECT k, window_start, window_end, " + AGGS + " FROM TABLE(HOP(TABLE ev, DESCRIPTOR(ts),"
                + " INTERVAL '2' SECOND, INTERVAL '6' SECOND)) GROUP BY window_start, window_end, k",
                RandomEvents.hop(2000, 6000));
    }

    @Test
    void cumulatingTableFunction() throws Exception {
        check(16, "SELECT k, window_start, window_end, " + AGGS + " FROM TABLE(CUMULATE(TABLE ev, DESCRIPTOR(ts),"
                + " INTERVAL '2' SECOND, INTERVAL '6' SECOND)) GROUP BY k, window_start, window_end",
                RandomEvents.cumulate(2000, 6000));
    }

    @Test
    void sessionTableFunction() throws Exception {
        checkSessions(17, "SELECT k, window_start, window_end, " + AGGS + " FROM TABLE(SESSION(TABLE ev PARTITION BY k,"
                + " DESCRIPTOR(ts), INTERVAL '2' SECOND)) GROUP BY k, window_start, window_end");
    }

    @Test
    void sessionsArePerKeyAndMergeWhenARowBridgesThem() throws Exception {
        List<Event> events = List.of(event("a", 0), event("b", 1000), event("a", 2500), event("b", 3100),
                event("a", 1200));
        Map<String, List<Row>> out = run(RandomEvents.eventTable(List.of(events))
                + sink("o", "k VARCHAR, ws TIMESTAMP(3), we TIMESTAMP(3), c BIGINT")
                + "INSERT INTO o SELECT k, SESSION_START(ts, INTERVAL '2' SECOND), SESSION_END(ts, INTERVAL '2' SECOND),"
                + " COUNT(*) FROM ev GROUP BY k, SESSION(ts, INTERVAL '2' SECOND)", "o");
        // a: 0 and 2500 are two sessions until 1200 bridges them; b's rows in between never join a's sessions.
        assertEquals(List.of(text("a", BASE, BASE + 4500, 3L), text("b", BASE + 1000, BASE + 3000, 1L),
                text("b", BASE + 3100, BASE + 5100, 1L)), Changelog.materialize(out.get("o")));
    }

    @Test
    void cascadedGroupWindows() throws Exception {
        checkCascaded(18, "CREATE VIEW w5 AS SELECT k, TUMBLE_ROWTIME(ts, INTERVAL '5' SECOND) AS rt, COUNT(*) AS c"
                + " FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);\n"
                + "INSERT INTO o SELECT k, TUMBLE_START(rt, INTERVAL '20' SECOND), SUM(c), COUNT(*) FROM w5"
                + " GROUP BY k, TUMBLE(rt, INTERVAL '20' SECOND)");
    }

    @Test
    void cascadedTableFunctionWindows() throws Exception {
        checkCascaded(19, "CREATE VIEW w5 AS SELECT k, window_time AS rt, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE ev,"
                + " DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY k, window_start, window_end, window_time;\n"
                + "INSERT INTO o SELECT k, window_start, SUM(c), COUNT(*) FROM TABLE(TUMBLE(TABLE w5, DESCRIPTOR(rt),"
                + " INTERVAL '20' SECOND)) GROUP BY k, window_start, window_end");
    }

    @Test
    void processingTimeWindowsFireWhenABoundedInputEnds() throws Exception {
        List<List<Event>> shards = RandomEvents.generate(20, 2, 300);
        long before = System.currentTimeMillis();
        Map<String, List<Row>> out = run(RandomEvents.eventTable(shards).replace("ts TIMESTAMP(3),",
                "ts TIMESTAMP(3), p AS PROCTIME(),")
                + sink("o", "k VARCHAR, ws TIMESTAMP(3), c BIGINT")
                + "INSERT INTO o SELECT k, TUMBLE_START(p, INTERVAL '1' HOUR), COUNT(*) FROM ev"
                + " GROUP BY k, TUMBLE(p, INTERVAL '1' HOUR)", "o");
        long after = System.currentTimeMillis();
        Map<String, Long> counts = new TreeMap<>();
        for (Row r : out.get("o")) {
            long ws = (Long) r.get(1);
            assertTrue(ws > before - 3_600_000L && ws <= after, "window start " + ws + " is not around now");
            counts.merge((String) r.get(0), (Long) r.get(2), Long::sum);
        }
        assertEquals(RandomEvents.all(shards).stream().collect(Collectors.groupingBy(Event::k, TreeMap::new,
                Collectors.counting())), counts);
    }

    private static Event event(String k, long offset) {
        return new Event(0, 0, k, 1L, 0, "s", BASE + offset);
    }

    /** Runs the query over random events and compares with windows assigned directly. */
    private static void check(long seed, String query, Function<Long, List<Window>> assigner) throws Exception {
        List<List<Event>> shards = RandomEvents.generate(seed, 3, 500);
        Map<String, List<Event>> groups = new TreeMap<>();
        for (Event e : RandomEvents.all(shards)) {
            for (Window w : assigner.apply(e.ts())) {
                groups.computeIfAbsent(text(e.k(), w.start(), w.end()), x -> new ArrayList<>()).add(e);
            }
        }
        assertEquals(expected(groups), runQuery(seed, shards, query));
    }

    private static void checkSessions(long seed, String query) throws Exception {
        List<List<Event>> shards = RandomEvents.generate(seed, 3, 500);
        Map<String, List<Event>> groups = new TreeMap<>();
        Map<String, List<Event>> byKey = RandomEvents.all(shards).stream().collect(Collectors.groupingBy(Event::k));
        int merged = 0;
        for (List<Event> keyEvents : byKey.values()) {
            for (List<Event> session : RandomEvents.sessions(keyEvents, 2000)) {
                long start = session.stream().mapToLong(Event::ts).min().orElseThrow();
                long end = session.stream().mapToLong(Event::ts).max().orElseThrow() + 2000;
                groups.put(text(session.get(0).k(), start, end), session);
                merged += session.size() > 1 ? 1 : 0;
            }
        }
        assertTrue(groups.size() > 20 && merged > 10, "the data should make many sessions: " + groups.size());
        assertEquals(expected(groups), runQuery(seed, shards, query));
    }

    /** The rows of windows that are final: a merged session's earlier result is retracted, so it nets out. */
    private static List<String> runQuery(long seed, List<List<Event>> shards, String query) throws Exception {
        List<Row> rows = run(RandomEvents.eventTable(shards) + OUT + "INSERT INTO o " + query,
                "o").get("o");
        return Changelog.materialize(rows);
    }

    private static List<String> expected(Map<String, List<Event>> groups) {
        List<String> rows = new ArrayList<>();
        groups.forEach((window, events) -> {
            List<Long> vs = events.stream().map(Event::v).filter(Objects::nonNull).collect(Collectors.toList());
            rows.add(window + "|" + text(
                    (long) events.size(), (long) vs.size(),
                    vs.isEmpty() ? null : vs.stream().mapToLong(Long::longValue).sum(),
                    vs.isEmpty() ? null : vs.stream().mapToLong(Long::longValue).min().getAsLong(),
                    vs.isEmpty() ? null : vs.stream().mapToLong(Long::longValue).max().getAsLong()));
        });
        rows.sort(null);
        return rows;
    }

    /** A 20 s window over 5 s windows' rowtimes: the sum of their counts is the count of 20 s windows. */
    private static void checkCascaded(long seed, String script) throws Exception {
        List<List<Event>> shards = RandomEvents.generate(seed, 3, 500);
        List<Row> rows = run(RandomEvents.eventTable(shards)
                + sink("o", "k VARCHAR, ws TIMESTAMP(3), c BIGINT, windows BIGINT") + script, "o").get("o");
        Map<String, Long> counts = new TreeMap<>();
        Map<String, java.util.Set<Long>> inner = new TreeMap<>();
        Function<Long, List<Window>> outer = RandomEvents.tumble(20_000);
        for (Event e : RandomEvents.all(shards)) {
            String key = text(e.k(), outer.apply(e.ts()).get(0).start());
            counts.merge(key, 1L, Long::sum);
            inner.computeIfAbsent(key, x -> new java.util.TreeSet<>()).add(e.ts() - Math.floorMod(e.ts(), 5000L));
        }
        List<String> expected = counts.entrySet().stream()
                .map(c -> c.getKey() + "|" + text(c.getValue(), (long) inner.get(c.getKey()).size()))
                .sorted().collect(Collectors.toList());
        assertEquals(expected, texts(rows));
    }
}
