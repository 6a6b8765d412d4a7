package dev.rsql.planner;

import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;
import java.util.function.Predicate;

import static dev.rsql.planner.KeyedRow.all;
import static dev.rsql.planner.KeyedRow.generate;
import static dev.rsql.planner.KeyedRow.table;
import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IN, NOT IN, EXISTS, NOT EXISTS and scalar subqueries over random inputs on three shards (NULL keys now and then),
 * with subqueries over a grouped count whose groups enter and leave the subquery's result as rows arrive, compared
 * with the queries computed here row by row over the final inputs.
 */
class SubQuerySqlTest {

    /** A row: its key (NULL now and then) and a value. */
    /** The rows of {@code a} that pass, as sorted text. */
    private static List<String> select(List<KeyedRow> a, Predicate<KeyedRow> where) {
        List<String> out = new ArrayList<>();
        for (KeyedRow i : a) {
            if (where.test(i)) {
                out.add(text(i.k(), i.x()));
            }
        }
        out.sort(null);
        return out;
    }

    /** SQL's three-valued {@code k NOT IN (set)}: true only when k is not NULL, the set has no NULL and lacks k. */
    private static boolean notIn(Integer k, List<Integer> set) {
        if (set.isEmpty()) {
            return true;
        }
        return k != null && !set.contains(null) && !set.contains(k);
    }

    @Test
    void inAndNotInOverAnUpdatingSubquery() throws Exception {
        Random r = new Random(71);
        List<List<KeyedRow>> a = generate(r, 3, 60, 10, 12);
        List<List<KeyedRow>> b = generate(r, 3, 40, 10, 12);
        // groups of b with fewer than 10 rows: a group enters when its first row arrives and leaves at its tenth
        String few = "SELECT k FROM b GROUP BY k HAVING COUNT(*) < 10";
        String columns = "k INT, x BIGINT";
        Map<String, List<Row>> out = run(table("a", "x", a) + table("b", "y", b)
                + "CREATE VIEW big AS SELECT k FROM b WHERE y > 80;\n"
                + sink("in_out", columns) + sink("not_in_out", columns) + sink("not_in_nonnull", columns)
                + sink("in_few", columns) + sink("not_in_few", columns) + sink("counts_in_few", columns)
                + "INSERT INTO in_out SELECT k, x FROM a WHERE k IN (SELECT k FROM big) AND x > 10;\n"
                + "INSERT INTO not_in_out SELECT k, x FROM a WHERE k NOT IN (SELECT k FROM big);\n"
                + "INSERT INTO not_in_nonnull SELECT k, x FROM a WHERE k NOT IN "
                + "(SELECT k FROM big WHERE k IS NOT NULL);\n"
                + "INSERT INTO in_few SELECT k, x FROM a WHERE k IN (" + few + ");\n"
                + "INSERT INTO not_in_few SELECT k, x FROM a WHERE k NOT IN (" + few + ");\n"
                // both sides updating
                + "INSERT INTO counts_in_few SELECT k, c FROM (SELECT k, COUNT(*) AS c FROM a GROUP BY k) g\n"
                + "  WHERE k IN (" + few + ");\n",
                "in_out", "not_in_out", "not_in_nonnull", "in_few", "not_in_few", "counts_in_few");
        List<Integer> big = all(b).stream().filter(i -> i.x() > 80).map(KeyedRow::k).toList();
        List<Integer> bigNonNull = big.stream().filter(Objects::nonNull).toList();
        Map<Integer, Integer> counts = new HashMap<>();
        all(b).forEach(i -> counts.merge(i.k(), 1, Integer::sum));
        List<Integer> fewKeys = counts.entrySet().stream().filter(e -> e.getValue() < 10).map(Map.Entry::getKey)
                .toList();
        assertTrue(big.contains(null), "the test needs a NULL in the subquery");
        assertTrue(!fewKeys.isEmpty() && fewKeys.size() < counts.size(), "the test needs groups in and out");
        assertEquals(select(all(a), i -> i.k() != null && big.contains(i.k()) && i.x() > 10),
                Changelog.materialize(out.get("in_out")));
        assertEquals(List.of(), Changelog.materialize(out.get("not_in_out")), "a NULL in the subquery: none");
        List<String> notInNonNull = select(all(a), i -> notIn(i.k(), bigNonNull));
        assertTrue(notInNonNull.size() > 10);
        assertEquals(notInNonNull, Changelog.materialize(out.get("not_in_nonnull")));
        assertEquals(select(all(a), i -> i.k() != null && fewKeys.contains(i.k())),
                Changelog.materialize(out.get("in_few")));
        assertEquals(select(all(a), i -> notIn(i.k(), fewKeys)), Changelog.materialize(out.get("not_in_few")));
        Map<Integer, Integer> aCounts = new HashMap<>();
        all(a).forEach(i -> aCounts.merge(i.k(), 1, Integer::sum));
        List<String> countsInFew = new ArrayList<>();
        aCounts.forEach((k, c) -> {
            if (k != null && fewKeys.contains(k)) {
                countsInFew.add(text(k, (long) c));
            }
        });
        countsInFew.sort(null);
        assertEquals(countsInFew, Changelog.materialize(out.get("counts_in_few")));
    }

    @Test
    void correlatedExistsAndNotExists() throws Exception {
        Random r = new Random(72);
        List<List<KeyedRow>> a = generate(r, 3, 60, 10, 12);
        List<List<KeyedRow>> b = generate(r, 3, 40, 10, 12);
        String columns = "k INT, x BIGINT";
        Map<String, List<Row>> out = run(table("a", "x", a) + table("b", "y", b)
                + "CREATE VIEW counts AS SELECT k, COUNT(*) AS c FROM b GROUP BY k;\n"
                + sink("exists_out", columns) + sink("not_exists_out", columns) + sink("not_exists_few", columns)
                + "INSERT INTO exists_out SELECT k, x FROM a WHERE EXISTS "
                + "(SELECT 1 FROM b WHERE b.k = a.k AND b.y > a.x);\n"
                + "INSERT INTO not_exists_out SELECT k, x FROM a WHERE NOT EXISTS "
                + "(SELECT * FROM b WHERE b.k = a.k AND b.y > a.x);\n"
                + "INSERT INTO not_exists_few SELECT k, x FROM a WHERE NOT EXISTS "
                + "(SELECT k FROM counts WHERE counts.k = a.k AND counts.c < 10);\n",
                "exists_out", "not_exists_out", "not_exists_few");
        Predicate<KeyedRow> exists = i -> all(b).stream()
                .anyMatch(j -> i.k() != null && i.k().equals(j.k()) && j.x() > i.x());
        Map<Integer, Integer> counts = new HashMap<>();
        all(b).forEach(i -> counts.merge(i.k(), 1, Integer::sum));
        List<String> existing = select(all(a), exists);
        assertTrue(existing.size() > 10 && existing.size() < all(a).size() - 10);
        assertEquals(existing, Changelog.materialize(out.get("exists_out")));
        assertEquals(select(all(a), exists.negate()), Changelog.materialize(out.get("not_exists_out")));
        assertEquals(select(all(a), i -> !(i.k() != null && counts.getOrDefault(i.k(), 99) < 10)),
                Changelog.materialize(out.get("not_exists_few")));
    }

    @Test
    void scalarSubqueries() throws Exception {
        Random r = new Random(73);
        List<List<KeyedRow>> a = generate(r, 3, 50, 10, 12);
        List<List<KeyedRow>> b = generate(r, 3, 40, 10, 12);
        Map<String, List<Row>> out = run(table("a", "x", a) + table("b", "y", b)
                + sink("counted", "k INT, x BIGINT, c BIGINT") + sink("above", "k INT, x BIGINT")
                + "INSERT INTO counted SELECT k, x, (SELECT COUNT(*) FROM b WHERE b.k = a.k) FROM a;\n"
                + "INSERT INTO above SELECT k, x FROM a WHERE x + 60 > (SELECT MAX(y) FROM b WHERE k IS NOT NULL);\n",
                "counted", "above");
        List<String> counted = new ArrayList<>();
        for (KeyedRow i : all(a)) {
            counted.add(text(i.k(), i.x(), all(b).stream().filter(j -> i.k() != null && i.k().equals(j.k())).count()));
        }
        counted.sort(null);
        assertEquals(counted, Changelog.materialize(out.get("counted")));
        long max = all(b).stream().filter(j -> j.k() != null).mapToLong(KeyedRow::x).max().orElseThrow();
        List<String> above = select(all(a), i -> i.x() + 60 > max);
        assertTrue(!above.isEmpty() && above.size() < all(a).size());
        assertEquals(above, Changelog.materialize(out.get("above")));
    }

    private static PlannedJob plan(String script) {
        return new ScriptPlanner(PlannerContext.defaults()).plan("t", script);
    }

    /**
     * The plans: IN a semi join keyed by the compared columns, NOT IN over nullable columns an anti join on a constant
     * key with the null-aware condition, NOT IN over NOT NULL columns keyed; anti joins emit deletes.
     */
    @Test
    void plansAreSemiAndAntiJoins() {
        String ddl = "CREATE TABLE a (k INT, x BIGINT NOT NULL) WITH (type = 'values', id = 'none');\n"
                + "CREATE TABLE b (k INT, y BIGINT NOT NULL) WITH (type = 'values', id = 'none');\n"
                + "CREATE TABLE o (k INT, x BIGINT) WITH (type = 'collect', id = 'none');\n";
        String in = plan(ddl + "INSERT INTO o SELECT * FROM a WHERE k IN (SELECT k FROM b);")
                .physicalPlans().get(0);
        assertTrue(in.contains("SemiJoin(leftKeys=[k], rightKeys=[k]") && in.contains("changelogMode=[I]"), in);
        String notIn = plan(ddl + "INSERT INTO o SELECT * FROM a WHERE k NOT IN (SELECT k FROM b);")
                .physicalPlans().get(0);
        assertTrue(notIn.contains("AntiJoin(leftKeys=[$constant_key], rightKeys=[$constant_key], where=[((k = k0) IS NOT FALSE")
                && notIn.contains("changelogMode=[I,D]"), notIn);
        String notNull = plan(ddl
                + "INSERT INTO o SELECT * FROM a WHERE x NOT IN (SELECT y FROM b);").physicalPlans().get(0);
        assertTrue(notNull.contains("AntiJoin(leftKeys=[x], rightKeys=[y]"), notNull);
        String mixed = plan(ddl + "INSERT INTO o SELECT * FROM a WHERE k IN (SELECT y FROM b);").physicalPlans().get(0);
        assertTrue(mixed.contains("SemiJoin(leftKeys=["), mixed);
    }

    /**
     * An anti join forgets a key idle for the state TTL: a row deleted by its match comes back when it arrives again
     * after the match was forgotten (without the TTL it would stay matched).
     */
    @Test
    void idleKeysOfAnAntiJoinExpireAfterTheStateTtl() throws Exception {
        String a = "ttl-a-" + UUID.randomUUID();
        String b = "ttl-b-" + UUID.randomUUID();
        ValuesSourceFactory.register(a, List.of());
        ValuesSourceFactory.register(b, List.of());
        try (TestJob job = new TestJob("ttl", "SET 'table.exec.state.ttl' = '300 ms';\n"
                + "CREATE TABLE a (k INT, x BIGINT) WITH (type = 'values', id = '" + a + "', bounded = 'false');\n"
                + "CREATE TABLE b (k INT, y BIGINT) WITH (type = 'values', id = '" + b + "', bounded = 'false');\n"
                + sink("o", "k INT, x BIGINT")
                + "INSERT INTO o SELECT k, x FROM a WHERE NOT EXISTS (SELECT * FROM b WHERE b.k = a.k)")) {
            ValuesSourceFactory.append(a, 0, "{\"k\":1,\"x\":10}");
            job.await("o", rows -> rows.size() == 1);
            ValuesSourceFactory.append(b, 0, "{\"k\":1,\"y\":20}");
            job.await("o", rows -> rows.size() == 2);
            long expired = System.currentTimeMillis() + 300;
            for (long now = System.currentTimeMillis(); now < expired; now = System.currentTimeMillis()) {
                Thread.sleep(expired - now);
            }
            ValuesSourceFactory.append(a, 0, "{\"k\":1,\"x\":11}");
            List<Row> rows = job.await("o", r -> r.size() == 3);
            assertEquals(List.of("1|11"), Changelog.materialize(rows), () -> rows.toString());
        }
    }
}
