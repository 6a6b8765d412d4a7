package dev.rsql.planner;

import dev.rsql.planner.TimedRows.Timed;
import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

import static dev.rsql.planner.TimedRows.BASE;
import static dev.rsql.planner.TimedRows.all;
import static dev.rsql.planner.TimedRows.generate;
import static dev.rsql.planner.TimedRows.table;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Event-time temporal joins with a versioned table (primary key and watermark) over random out-of-order inputs,
 * compared with a lookup of the version valid at each order's time written here.
 */
class TemporalJoinSqlTest {

    private static final String COLUMNS = "ok INT, oid BIGINT, rk INT, rid BIGINT";
    private static final String VERSIONED = ", PRIMARY KEY (k) NOT ENFORCED";

    /** The version of the order's key with the latest time at or before the order's, or null. */
    private static Timed version(Timed order, List<Timed> versions) {
        Timed best = null;
        for (Timed v : versions) {
            if (order.k() != null && order.k().equals(v.k()) && v.ts() <= order.ts()
                    && (best == null || v.ts() > best.ts())) {
                best = v;
            }
        }
        return best;
    }

    private static List<String> expected(List<Timed> orders, List<Timed> versions, boolean left) {
        List<String> out = new ArrayList<>();
        for (Timed o : orders) {
            Timed v = version(o, versions);
            // The residual condition: the version's id is not a multiple of 7.
            if (v != null && v.id() % 7 != 0) {
                out.add(RandomEvents.text(o.k(), o.id(), v.k(), v.id()));
            } else if (left) {
                out.add(RandomEvents.text(o.k(), o.id(), null, null));
            }
        }
        out.sort(null);
        return out;
    }

    /** Versions of one key never share a time, so that which one is valid does not depend on arrival order. */
    private static List<List<Timed>> distinctTimes(List<List<Timed>> shards) {
        Set<String> seen = new HashSet<>();
        List<List<Timed>> out = new ArrayList<>();
        for (List<Timed> shard : shards) {
            out.add(shard.stream().filter(v -> v.k() != null && seen.add(v.k() + "@" + v.ts())).toList());
        }
        return out;
    }

    @Test
    void ordersJoinTheVersionValidAtTheirTime() throws Exception {
        Random r = new Random(81);
        List<List<Timed>> orders = generate(r, 3, 200, 6, 100);
        List<List<Timed>> rates = distinctTimes(generate(r, 2, 120, 6, 250));
        String join = " SELECT o.k, o.id, r.k, r.id FROM o %s JOIN r FOR SYSTEM_TIME AS OF o.ts ON o.k = r.k"
                + " AND MOD(r.id, 7) <> 0;\n";
        Map<String, List<Row>> out = run(table("o", orders, "") + table("r", rates, VERSIONED)
                + sink("inner_out", COLUMNS) + sink("left_out", COLUMNS)
                + "INSERT INTO inner_out" + String.format(join, "") + "INSERT INTO left_out" + String.format(join,
                "LEFT"), "inner_out", "left_out");
        List<String> inner = expected(all(orders), all(rates), false);
        assertTrue(inner.size() > 300, "orders with a version: " + inner.size());
        assertEquals(inner, Changelog.materialize(out.get("inner_out")));
        List<String> left = expected(all(orders), all(rates), true);
        assertTrue(left.size() > inner.size() + 20, "orders without a version: " + (left.size() - inner.size()));
        assertEquals(left, Changelog.materialize(out.get("left_out")));
    }

    /** The output keeps the left side's time attribute: a window over the join counts each joined order once. */
    @Test
    void aTemporalJoinFeedsAWindowOnTheLeftTime() throws Exception {
        Random r = new Random(82);
        List<List<Timed>> orders = generate(r, 2, 200, 4, 100);
        List<List<Timed>> rates = distinctTimes(generate(r, 2, 60, 4, 300));
        List<Row> rows = run(table("o", orders, "") + table("r", rates, VERSIONED)
                + "CREATE VIEW j AS SELECT o.ts, r.id FROM o JOIN r FOR SYSTEM_TIME AS OF o.ts ON o.k = r.k;\n"
                + sink("w", "ws TIMESTAMP(3), n BIGINT")
                + "INSERT INTO w SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE j, DESCRIPTOR(ts),"
                + " INTERVAL '2' SECOND)) GROUP BY window_start, window_end;\n", "w").get("w");
        Map<Long, Long> expected = new java.util.TreeMap<>();
        for (Timed o : all(orders)) {
            if (version(o, all(rates)) != null) {
                expected.merge(o.ts() - Math.floorMod(o.ts(), 2000L), 1L, Long::sum);
            }
        }
        Map<Long, Long> got = new java.util.TreeMap<>();
        rows.forEach(x -> got.put((Long) x.get(0), (Long) x.get(1)));
        assertTrue(expected.size() > 5, "windows: " + expected.size());
        assertEquals(expected, got);
    }

    /**
     * Versions older than the one valid at the watermark are dropped: an order arriving late, at a time when an
     * older version was valid, finds no version (padded by the LEFT join), as in Flink.
     */
    @Test
    void versionsBehindTheWatermarkAreDropped() throws Exception {
        String o = "tj-o-" + UUID.randomUUID();
        String r = "tj-r-" + UUID.randomUUID();
        ValuesSourceFactory.register(o, List.of());
        ValuesSourceFactory.register(r, List.of());
        String ddl = "(k INT, id BIGINT, ts TIMESTAMP(3)%s, WATERMARK FOR ts AS withOffset(ts, 1000)) WITH (type ="
                + " 'values', bounded = 'false', id = '";
        try (TestJob job = new TestJob("late", "CREATE TABLE o " + String.format(ddl, "") + o + "');\n"
                + "CREATE TABLE r " + String.format(ddl, VERSIONED) + r + "');\n" + sink("joined", COLUMNS)
                + "INSERT INTO joined SELECT o.k, o.id, r.k, r.id FROM o LEFT JOIN r FOR SYSTEM_TIME AS OF o.ts"
                + " ON o.k = r.k")) {
            ValuesSourceFactory.append(r, 0, new Timed(1, 100, BASE).json(), new Timed(1, 101, BASE + 10_000).json(),
                    new Timed(2, 200, BASE + 30_000).json());
            ValuesSourceFactory.append(o, 0, new Timed(1, 1, BASE + 5000).json(), new Timed(2, 2, BASE + 30_000)
                    .json(), new Timed(3, 3, BASE + 30_000).json());
            job.await("joined", rows -> rows.size() == 1);
            assertEquals("1|1|1|100", RandomEvents.text(job.await("joined", rows -> true).get(0).fields()));
            ValuesSourceFactory.append(o, 0, new Timed(1, 4, BASE + 6000).json(), new Timed(9, 9, BASE + 60_000)
                    .json());
            ValuesSourceFactory.append(r, 0, new Timed(9, 900, BASE + 60_000).json());
            List<String> rows = job.await("joined", x -> x.size() == 4).stream().map(x -> RandomEvents.text(x.fields()))
                    .sorted().toList();
            assertEquals(List.of("1|1|1|100", "1|4|null|null", "2|2|2|200", "3|3|null|null"), rows);
        }
    }

    /**
     * EXPLAIN shows the node; a table without a primary key, a join that misses the key, a processing-time period and
     * an updating left side are refused with the position.
     */
    @Test
    void explainShowsTheTemporalJoinAndWhatCannotRunIsRefused() {
        String ddl = table("o", List.of(List.of()), ", p AS PROCTIME()") + table("r", List.of(List.of()), VERSIONED)
                + table("plain", List.of(List.of()), "")
                + "CREATE TABLE joined (" + COLUMNS + ") WITH (type = 'collect');\n";
        String join = "INSERT INTO joined SELECT o.k, o.id, r.k, r.id FROM o LEFT JOIN r FOR SYSTEM_TIME AS OF o.ts"
                + " ON o.k = r.k";
        String plan = new ScriptPlanner(PlannerContext.defaults()).plan("t", ddl + join).physicalPlans().get(0);
        assertTrue(plan.contains("TemporalJoin(joinType=[left], leftKeys=[k], rightKeys=[k], period=[ts])"
                + " changelogMode=[I]"), plan);
        assertRefused(ddl + join.replace("JOIN r FOR SYSTEM_TIME AS OF o.ts",
                        "JOIN plain FOR SYSTEM_TIME AS OF o.ts AS r"),
                "line 5, column 1: an event-time temporal join needs a versioned table: plain has no PRIMARY KEY");
        assertRefused(ddl + join.replace("o.k = r.k", "o.id = r.id"), "must join on the primary key of the versioned"
                + " table r: ON has no equality on k");
        assertRefused(ddl + join.replace("AS OF o.ts", "AS OF o.p"), "FOR SYSTEM_TIME AS OF a processing-time"
                + " attribute needs a dimension table");
        assertRefused(ddl + join.replace("FROM o LEFT", "FROM (SELECT k, ts, COUNT(*) AS id FROM o GROUP BY k, ts) o"
                + " LEFT"), "TemporalJoin(joinType=[left]");
    }

    private static void assertRefused(String script, String message) {
        PlanningException e = assertThrows(PlanningException.class,
                () -> new ScriptPlanner(PlannerContext.defaults()).plan("t", script));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
