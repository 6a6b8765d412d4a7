package dev.rsql.planner;

import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

import static dev.rsql.planner.KeyedRow.all;
import static dev.rsql.planner.KeyedRow.generate;
import static dev.rsql.planner.KeyedRow.table;
import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Regular joins over random inputs on three shards each, compared with a nested-loop join written here. */
class JoinSqlTest {

    /** A row of a side: its key (NULL now and then) and a value. */
    /** The join as a nested loop: matched pairs, then unmatched rows of the outer sides padded with NULLs. */
    private static List<String> nestedLoop(List<KeyedRow> left, List<KeyedRow> right, boolean leftOuter,
                                           boolean rightOuter) {
        List<String> out = new ArrayList<>();
        boolean[] rightMatched = new boolean[right.size()];
        for (KeyedRow a : left) {
            boolean matched = false;
            for (int j = 0; j < right.size(); j++) {
                KeyedRow b = right.get(j);
                if (a.k() != null && a.k().equals(b.k()) && a.x() < b.x() + 30) {
                    out.add(text(a.k(), a.x(), b.k(), b.x()));
                    matched = true;
                    rightMatched[j] = true;
                }
            }
            if (!matched && leftOuter) {
                out.add(text(a.k(), a.x(), null, null));
            }
        }
        for (int j = 0; j < right.size(); j++) {
            if (!rightMatched[j] && rightOuter) {
                out.add(text(null, null, right.get(j).k(), right.get(j).x()));
            }
        }
        out.sort(null);
        return out;
    }

    /** INNER, LEFT, RIGHT and FULL joins of insert-only inputs, with an equality and a residual condition. */
    @Test
    void joinsOfAppendOnlyStreams() throws Exception {
        Random r = new Random(51);
        List<List<KeyedRow>> a = generate(r, 3, 150, 12, 15);
        List<List<KeyedRow>> b = generate(r, 3, 150, 12, 15);
        String columns = "ak INT, ax BIGINT, bk INT, by_ BIGINT";
        StringBuilder script = new StringBuilder(table("a", "x", a) + table("b", "y", b));
        for (String type : List.of("inner", "left", "right", "full")) {
            script.append(sink(type + "_out", columns)).append("INSERT INTO ").append(type)
                    .append("_out SELECT a.k, a.x, b.k, b.y")
                    .append(" FROM a ").append(type).append(" JOIN b ON a.k = b.k AND a.x < b.y + 30;\n");
        }
        Map<String, List<Row>> out = run(script.toString(), "inner_out", "left_out", "right_out", "full_out");
        assertTrue(nestedLoop(all(a), all(b), false, false).size() > 100, "too few matches to be a test");
        assertEquals(nestedLoop(all(a), all(b), false, false), Changelog.materialize(out.get("inner_out")));
        assertEquals(nestedLoop(all(a), all(b), true, false), Changelog.materialize(out.get("left_out")));
        assertEquals(nestedLoop(all(a), all(b), false, true), Changelog.materialize(out.get("right_out")));
        assertEquals(nestedLoop(all(a), all(b), true, true), Changelog.materialize(out.get("full_out")));
    }

    /**
     * Joins of an updating input (a running sum per key, scaled, retracted on every change) with a stream: the
     * changelog they emit, applied, is the join of the final sums; a sink keyed by columns of the join gets its rows.
     */
    @Test
    void joinsOfAnUpdatingInput() throws Exception {
        Random r = new Random(52);
        List<List<KeyedRow>> a = generate(r, 3, 200, 12, 15);
        List<List<KeyedRow>> b = generate(r, 2, 40, 12, 15);
        String view = "CREATE VIEW sums AS SELECT k, SUM(x) / 20 AS x FROM a WHERE k IS NOT NULL GROUP BY k;\n";
        String columns = "ak INT, ax BIGINT, bk INT, by_ BIGINT";
        String select = " SELECT sums.k, sums.x, b.k, b.y FROM sums %s JOIN b ON sums.k = b.k AND sums.x < b.y + 30;\n";
        Map<String, List<Row>> out = run(table("a", "x", a) + table("b", "y", b) + view
                + sink("inner_out", columns) + sink("full_out", columns)
                + sink("keyed", columns + ", PRIMARY KEY (ak, bk, by_) NOT ENFORCED")
                + "INSERT INTO inner_out" + String.format(select, "INNER")
                + "INSERT INTO full_out" + String.format(select, "FULL")
                + "INSERT INTO keyed" + String.format(select, "INNER"), "inner_out", "full_out", "keyed");
        Map<Integer, Long> sums = new TreeMap<>();
        all(a).stream().filter(x -> x.k() != null).forEach(x -> sums.merge(x.k(), x.x(), Long::sum));
        List<KeyedRow> finalSums = sums.entrySet().stream().map(e -> new KeyedRow(e.getKey(), e.getValue() / 20))
                .toList();
        List<String> inner = nestedLoop(finalSums, all(b), false, false);
        assertTrue(inner.size() > 5 && inner.size() < finalSums.size() * all(b).size() / 15,
                "some pairs match and some do not: " + inner.size());
        assertEquals(inner, Changelog.materialize(out.get("inner_out")));
        assertEquals(nestedLoop(finalSums, all(b), true, true), Changelog.materialize(out.get("full_out")));
        // Keyed by columns that are no upsert key of the join: through a materializer, one row per distinct key.
        assertEquals(inner.stream().distinct().toList(), Changelog.upsert(out.get("keyed"), 0, 2, 3).values()
                .stream().map(x -> text(x.toArray())).sorted().toList());
    }

    /** Keys of different numeric types join on their common type, as in Flink. */
    @Test
    void keysOfDifferentTypesJoin() throws Exception {
        Random r = new Random(54);
        List<List<KeyedRow>> a = generate(r, 2, 60, 12, 15);
        List<List<KeyedRow>> b = generate(r, 2, 60, 12, 15);
        String wide = table("b", "y", b).replace("(k INT,", "(k BIGINT,");
        List<Row> rows = run(table("a", "x", a) + wide + sink("o", "ak INT, ax BIGINT, bk BIGINT, by_ BIGINT")
                + "INSERT INTO o SELECT a.k, a.x, b.k, b.y FROM a LEFT JOIN b ON a.k = b.k AND a.x < b.y + 30;\n",
                "o").get("o");
        assertEquals(nestedLoop(all(a), all(b), true, false), Changelog.materialize(rows));
    }

    /** A chain of joins through a view: an inner join of two streams, left-joined with a third. */
    @Test
    void joinsChainThroughViews() throws Exception {
        Random r = new Random(53);
        List<List<KeyedRow>> a = generate(r, 2, 80, 12, 15);
        List<List<KeyedRow>> b = generate(r, 2, 80, 12, 15);
        List<List<KeyedRow>> c = generate(r, 2, 80, 12, 15);
        List<Row> rows = run(table("a", "x", a) + table("b", "y", b) + table("c", "z", c)
                + "CREATE VIEW ab AS SELECT a.k, a.x, b.y FROM a JOIN b ON a.k = b.k AND a.x < b.y + 30;\n"
                + sink("abc", "k INT, x BIGINT, y BIGINT, z BIGINT")
                + "INSERT INTO abc SELECT ab.k, ab.x, ab.y, c.z FROM ab LEFT JOIN c ON ab.k = c.k AND ab.y < c.z;\n",
                "abc").get("abc");
        List<String> expected = new ArrayList<>();
        for (KeyedRow x : all(a)) {
            for (KeyedRow y : all(b)) {
                if (x.k() == null || !x.k().equals(y.k()) || x.x() >= y.x() + 30) {
                    continue;
                }
                boolean matched = false;
                for (KeyedRow z : all(c)) {
                    if (x.k().equals(z.k()) && y.x() < z.x()) {
                        expected.add(text(x.k(), x.x(), y.x(), z.x()));
                        matched = true;
                    }
                }
                if (!matched) {
                    expected.add(text(x.k(), x.x(), y.x(), null));
                }
            }
        }
        expected.sort(null);
        assertTrue(expected.stream().anyMatch(e -> e.endsWith("|null")) && expected.size() > 100,
                "matched and unmatched rows: " + expected.size());
        assertEquals(expected, Changelog.materialize(rows));
    }

    /**
     * A join key untouched for the state TTL is forgotten on both sides, without output: a right row arriving later
     * finds no left row; a new left row then joins it. The left join's padded row of the forgotten
     * row stays, as in Flink.
     */
    @Test
    void idleJoinKeysExpireAfterTheStateTtl() throws Exception {
        String a = "ttl-a-" + UUID.randomUUID();
        String b = "ttl-b-" + UUID.randomUUID();
        ValuesSourceFactory.register(a, List.of());
        ValuesSourceFactory.register(b, List.of());
        try (TestJob job = new TestJob("ttl", "SET 'table.exec.state.ttl' = '300 ms';\n"
                + "CREATE TABLE a (k INT, x BIGINT) WITH (type = 'values', id = '" + a + "', bounded = 'false');\n"
                + "CREATE TABLE b (k INT, y BIGINT) WITH (type = 'values', id = '" + b + "', bounded = 'false');\n"
                + sink("o", "k INT, x BIGINT, y BIGINT")
                + "INSERT INTO o SELECT a.k, a.x, b.y FROM a LEFT JOIN b ON a.k = b.k")) {
            ValuesSourceFactory.append(a, 0, "{\"k\":1,\"x\":10}");
            job.await("o", rows -> rows.size() == 1);
            long expired = System.currentTimeMillis() + 300;
            for (long now = System.currentTimeMillis(); now < expired; now = System.currentTimeMillis()) {
                Thread.sleep(expired - now);
            }
            ValuesSourceFactory.append(b, 0, "{\"k\":1,\"y\":20}");
            ValuesSourceFactory.append(a, 0, "{\"k\":1,\"x\":11}");
            // The two sources race: a's row may come first (padded, then deleted when b's arrives).
            List<Row> rows = job.await("o", r -> Changelog.materialize(r).contains("1|11|20"));
            assertEquals(List.of("1|10|null", "1|11|20"), Changelog.materialize(rows),
                    "the expired left row was not joined: " + EmitAndLatenessSqlTest.changelog(rows));
        }
    }
}
