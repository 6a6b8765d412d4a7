package dev.rsql.planner;

import dev.rsql.planner.RandomEvents.Event;
import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every aggregate function, in windows and over changelogs, compared with a direct computation of the same. */
class AggregateSqlTest {

    /**
     * One shard, so each key's rows arrive in input order and the order-sensitive aggregates (FIRST_VALUE,
     * LAST_VALUE, CONCAT_AGG, LISTAGG) have one right answer.
     */
    @Test
    void windowAggregatesOverRandomInput() throws Exception {
        List<List<Event>> shards = RandomEvents.generate(31, 1, 1500);
        List<Row> rows = run(RandomEvents.eventTable(shards)
                + sink("o", "k VARCHAR, ws TIMESTAMP(3), n BIGINT, cd BIGINT, av BIGINT, ad DOUBLE, ca VARCHAR,"
                + " cb VARCHAR, fv VARCHAR, lv VARCHAR, vp DOUBLE, vs DOUBLE, sp DOUBLE, ss DOUBLE, acd BIGINT,"
                + " cf BIGINT, sf BIGINT, la VARCHAR, lb VARCHAR")
                + "INSERT INTO o SELECT k, window_start, COUNT(*), COUNT(DISTINCT v), AVG(v), AVG(d), CONCAT_AGG(s),"
                + " CONCAT_AGG('|', s), FIRST_VALUE(s), LAST_VALUE(s), VAR_POP(d), VAR_SAMP(d), STDDEV_POP(d),"
                + " STDDEV_SAMP(d), APPROX_COUNT_DISTINCT(s), COUNT(*) FILTER (WHERE v > 50),"
                + " SUM(v) FILTER (WHERE d < 50), LISTAGG(s), LISTAGG(s, '；')"
                + " FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' SECOND))"
                + " GROUP BY k, window_start, window_end HAVING COUNT(*) > 2", "o").get("o");

        Map<String, List<Event>> windows = new TreeMap<>();
        for (Event e : shards.get(0)) {
            windows.computeIfAbsent(text(e.k(), e.ts() - Math.floorMod(e.ts(), 5000L)), x -> new ArrayList<>()).add(e);
        }
        windows.values().removeIf(events -> events.size() <= 2);
        assertTrue(windows.size() > 50, "too few windows to be a test: " + windows.size());

        Map<String, Object[]> actual = new TreeMap<>();
        for (Row r : rows) {
            assertEquals(RowKind.INSERT, r.kind());
            actual.put(text(r.get(0), r.get(1)), Arrays.copyOfRange(r.fields(), 2, r.arity()));
        }
        assertEquals(windows.keySet(), actual.keySet());
        windows.forEach((window, events) -> {
            List<Long> vs = events.stream().map(Event::v).filter(Objects::nonNull).collect(Collectors.toList());
            List<String> ss = events.stream().map(Event::s).collect(Collectors.toList());
            double[] ds = events.stream().mapToDouble(Event::d).toArray();
            Object[] a = actual.get(window);
            String at = "window " + window + " field ";
            assertEquals((long) events.size(), a[0], at + "COUNT(*)");
            assertEquals((long) new HashSet<>(vs).size(), a[1], at + "COUNT(DISTINCT v)");
            assertEquals(vs.isEmpty() ? null : vs.stream().mapToLong(Long::longValue).sum() / vs.size(), a[2],
                    at + "AVG(v)");
            assertClose(Arrays.stream(ds).average().orElseThrow(), a[3], at + "AVG(d)");
            assertEquals(String.join("\n", ss), a[4], at + "CONCAT_AGG(s)");
            assertEquals(String.join("|", ss), a[5], at + "CONCAT_AGG('|', s)");
            assertEquals(ss.get(0), a[6], at + "FIRST_VALUE");
            assertEquals(ss.get(ss.size() - 1), a[7], at + "LAST_VALUE");
            double varPop = variance(ds, 0);
            double varSamp = variance(ds, 1);
            assertClose(varPop, a[8], at + "VAR_POP");
            assertClose(varSamp, a[9], at + "VAR_SAMP");
            assertClose(Math.sqrt(varPop), a[10], at + "STDDEV_POP");
            assertClose(Math.sqrt(varSamp), a[11], at + "STDDEV_SAMP");
            long distinct = new HashSet<>(ss).size();
            assertTrue(Math.abs(distinct - (Long) a[12]) <= Math.max(1, distinct / 50), at
                    + "APPROX_COUNT_DISTINCT: " + a[12] + " for " + distinct);
            assertEquals(events.stream().filter(e -> e.v() != null && e.v() > 50).count(), a[13], at + "FILTER count");
            List<Long> filtered = events.stream().filter(e -> e.v() != null && e.d() < 50).map(Event::v)
                    .collect(Collectors.toList());
            assertEquals(filtered.isEmpty() ? null : filtered.stream().mapToLong(Long::longValue).sum(), a[14],
                    at + "FILTER sum");
            assertEquals(String.join(",", ss), a[15], at + "LISTAGG(s)");
            assertEquals(String.join("；", ss), a[16], at + "LISTAGG(s, '；')");
        });
    }

    /** A GROUP BY without a window emits a changelog; applied, it is the table the aggregates describe. */
    @Test
    void groupAggregationIsAChangelogOfTheFinalTable() throws Exception {
        List<List<Event>> shards = RandomEvents.generate(32, 3, 400);
        String select = " SELECT k, COUNT(*), COUNT(v), COUNT(DISTINCT v), SUM(v), MIN(v), MAX(v), MAX(s) FROM ev"
                + " GROUP BY k HAVING COUNT(*) > 10;\n";
        String columns = "k VARCHAR, n BIGINT, cv BIGINT, cd BIGINT, sv BIGINT, mn BIGINT, mx BIGINT, ms VARCHAR";
        Map<String, List<Row>> out = run(RandomEvents.eventTable(shards)
                + sink("retract", columns) + sink("keyed", columns + ", PRIMARY KEY (k) NOT ENFORCED")
                + "INSERT INTO retract" + select + "INSERT INTO keyed" + select, "retract", "keyed");

        List<String> expected = new ArrayList<>();
        RandomEvents.all(shards).stream().collect(Collectors.groupingBy(Event::k, TreeMap::new, Collectors.toList()))
                .forEach((k, events) -> {
                    List<Long> vs = events.stream().map(Event::v).filter(Objects::nonNull)
                            .collect(Collectors.toList());
                    expected.add(text(k, (long) events.size(), (long) vs.size(), (long) new HashSet<>(vs).size(),
                            vs.stream().mapToLong(Long::longValue).sum(),
                            vs.stream().mapToLong(Long::longValue).min().getAsLong(),
                            vs.stream().mapToLong(Long::longValue).max().getAsLong(),
                            events.stream().map(Event::s).max(String::compareTo).orElseThrow()));
                });
        assertTrue(out.get("retract").stream().anyMatch(r -> r.kind() == RowKind.UPDATE_BEFORE),
                "a sink without a key receives the retractions");
        assertEquals(expected, Changelog.materialize(out.get("retract")));
        assertFalse(out.get("keyed").stream().anyMatch(r -> r.kind() == RowKind.UPDATE_BEFORE),
                "a sink with a key receives upserts only");
        assertEquals(expected, Changelog.upsert(out.get("keyed"), 0).values().stream()
                .map(r -> text(r.toArray())).sorted().collect(Collectors.toList()));
    }

    /**
     * Orders change status; a count per current status reads the changelog of the latest status per order, so it
     * takes back the order's old status on every change. A status no order keeps ends deleted from the table.
     */
    @Test
    void countOverAnUpdatingTableGivesTheFinalTableInAnUpsertSink() throws Exception {
        Random r = new Random(33);
        List<List<String>> shards = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        Map<Integer, String> finalStatus = new HashMap<>();
        List<List<String>> pending = new ArrayList<>();
        for (int order = 1; order <= 300; order++) {
            List<String> statuses = new ArrayList<>(List.of("NEW"));
            if (r.nextBoolean()) {
                statuses.add("REVIEW");
            }
            if (r.nextInt(3) > 0) {
                statuses.add(r.nextInt(4) == 0 ? "CANCELLED" : "PAID");
            }
            finalStatus.put(order, statuses.get(statuses.size() - 1).equals("REVIEW") ? "NEW"
                    : statuses.get(statuses.size() - 1));
            if (statuses.get(statuses.size() - 1).equals("REVIEW")) {
                statuses.add("NEW"); // back from review: no order stays in REVIEW
            }
            int o = order;
            pending.add(statuses.stream().map(s -> "{\"order_id\":" + o + ",\"status\":\"" + s + "\"}")
                    .collect(Collectors.toList()));
        }
        // Interleave orders within each shard; one order's events stay in one shard, in order.
        List<int[]> cursors = new ArrayList<>();
        for (int i = 0; i < pending.size(); i++) {
            cursors.add(new int[] {i, 0});
        }
        while (!cursors.isEmpty()) {
            int[] c = cursors.get(r.nextInt(cursors.size()));
            shards.get(c[0] % 3).add(pending.get(c[0]).get(c[1]++));
            if (c[1] == pending.get(c[0]).size()) {
                cursors.remove(c);
            }
        }
        String id = "orders-" + System.nanoTime();
        ValuesSourceFactory.register(id, shards.get(0), shards.get(1), shards.get(2));
        List<Row> rows = run("CREATE TABLE orders (order_id INT, status VARCHAR) WITH (type = 'values', id = '"
                + id + "');\n"
                + sink("by_status", "status VARCHAR, n BIGINT, max_id INT, PRIMARY KEY (status) NOT ENFORCED")
                + "CREATE VIEW latest AS SELECT order_id, LAST_VALUE(status) AS status FROM orders GROUP BY order_id;\n"
                + "INSERT INTO by_status SELECT status, COUNT(*), MAX(order_id) FROM latest GROUP BY status",
                "by_status").get("by_status");

        Map<String, List<Object>> expected = new TreeMap<>();
        finalStatus.forEach((order, status) -> expected.merge(status, List.of(status, 1L, order),
                (a, b) -> List.of(status, (Long) a.get(1) + 1, Math.max((Integer) a.get(2), (Integer) b.get(2)))));
        Map<String, List<Object>> table = new TreeMap<>();
        Changelog.upsert(rows, 0).forEach((k, v) -> table.put((String) k.get(0), v));
        assertEquals(expected, table);
        Predicate<Row> reviewDeleted = x -> x.kind() == RowKind.DELETE && "REVIEW".equals(x.get(0));
        assertTrue(rows.stream().anyMatch(reviewDeleted), "REVIEW, which no order keeps, is deleted");
    }

    /** SELECT DISTINCT over three shards and two partitions: each distinct row once, whatever shard it came from. */
    @Test
    void distinctIsGlobal() throws Exception {
        List<List<Event>> shards = RandomEvents.generate(34, 3, 400);
        List<Row> rows = run(RandomEvents.eventTable(shards)
                + sink("o", "k VARCHAR, s VARCHAR")
                + "INSERT INTO o SELECT DISTINCT k, s FROM ev", "o").get("o");
        Function<Event, String> row = e -> text(e.k(), e.s());
        List<String> expected = RandomEvents.all(shards).stream().map(row).distinct().sorted()
                .collect(Collectors.toList());
        assertTrue(expected.size() < RandomEvents.all(shards).size() / 4, "the input should repeat rows");
        assertEquals(expected, Changelog.materialize(rows));
        assertTrue(rows.stream().allMatch(x -> x.kind() == RowKind.INSERT), "DISTINCT only ever inserts");
    }

    /** A group untouched for the state TTL is forgotten: its next row starts it afresh (+I), as in Flink. */
    @Test
    void idleGroupsExpireAfterTheStateTtl() throws Exception {
        String id = "ttl-" + System.nanoTime();
        ValuesSourceFactory.register(id, List.of());
        try (TestJob job = new TestJob("ttl", "SET 'table.exec.state.ttl' = '300 ms';\n"
                + "CREATE TABLE ev (k VARCHAR) WITH (type = 'values', id = '" + id + "', bounded = 'false');\n"
                + sink("o", "k VARCHAR, n BIGINT") + "INSERT INTO o SELECT k, COUNT(*) FROM ev GROUP BY k")) {
            ValuesSourceFactory.append(id, 0, "{\"k\":\"a\"}", "{\"k\":\"a\"}");
            job.await("o", r -> r.size() == 3);
            // Let the TTL pass: it counts from the group's last update, which happened before the count was seen.
            long expired = System.currentTimeMillis() + 300;
            for (long now = System.currentTimeMillis(); now < expired; now = System.currentTimeMillis()) {
                Thread.sleep(expired - now);
            }
            ValuesSourceFactory.append(id, 0, "{\"k\":\"a\"}");
            List<Row> rows = job.await("o", r -> r.size() == 4);
            assertEquals(List.of("+I|a|1", "-U|a|1", "+U|a|2", "+I|a|1"), EmitAndLatenessSqlTest.changelog(rows));
        }
    }

    private static double variance(double[] xs, int ddof) {
        double mean = Arrays.stream(xs).average().orElseThrow();
        return Arrays.stream(xs).map(x -> (x - mean) * (x - mean)).sum() / (xs.length - ddof);
    }

    private static void assertClose(double expected, Object actual, String what) {
        assertTrue(actual instanceof Double, what + ": " + actual);
        assertEquals(expected, (Double) actual, 1e-9 * Math.max(1, Math.abs(expected)), what);
    }
}
