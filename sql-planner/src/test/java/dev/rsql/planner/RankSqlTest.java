package dev.rsql.planner;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.RankNode;
import dev.rsql.runtime.graph.WindowRankNode;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TopN (ROW_NUMBER, RANK, DENSE_RANK filtered by the rank) over random inputs on three shards, insert-only and
 * updating, compared with sorting the final input here. Changelogs are applied as a sink would: a delete of a row
 * that is not there fails the test.
 */
class RankSqlTest {

    /** A row: unique id, partition (NULL now and then), a value with many ties. */
    private record Item(long id, Integer k, long x) {
    }

    private static List<List<Item>> generate(Random r, int shards, int perShard, int minX, int maxX) {
        List<List<Item>> out = new ArrayList<>();
        long id = 0;
        for (int s = 0; s < shards; s++) {
            List<Item> rows = new ArrayList<>();
            for (int i = 0; i < perShard; i++) {
                rows.add(new Item(id++, r.nextInt(15) == 0 ? null : r.nextInt(6),
                        minX + r.nextInt(maxX - minX + 1)));
            }
            out.add(rows);
        }
        return out;
    }

    private static String table(List<List<Item>> shards) {
        return table(shards, Long.MAX_VALUE);
    }

    /** The rows as table {@code t}; x is NULL in rows whose id is a multiple of {@code nullEvery}. */
    @SuppressWarnings("unchecked")
    private static String table(List<List<Item>> shards, long nullEvery) {
        String id = "items-" + UUID.randomUUID();
        List<String>[] payloads = shards.stream().map(rows -> rows.stream()
                .map(x -> "{\"id\":" + x.id() + ",\"k\":" + x.k() + ",\"x\":"
                        + (x.id() % nullEvery == 0 ? "null" : x.x()) + "}").toList())
                .toArray(List[]::new);
        ValuesSourceFactory.register(id, payloads);
        return "CREATE TABLE t (id BIGINT, k INT, x BIGINT) WITH (type = 'values', id = '" + id + "');\n";
    }

    /**
     * The rows of each partition ranked by {@code order} (x DESC then id, or x alone for ties), as text with their
     * rank, where the rank lies in [from, to].
     */
    private static List<String> ranked(List<Item> rows, String function, long from, long to, boolean withRank) {
        Map<Integer, List<Item>> partitions = new TreeMap<>(Comparator.nullsFirst(Comparator.naturalOrder()));
        rows.forEach(i -> partitions.computeIfAbsent(i.k() == null ? Integer.MIN_VALUE : i.k(),
                k -> new ArrayList<>()).add(i));
        List<String> out = new ArrayList<>();
        for (List<Item> p : partitions.values()) {
            p.sort(Comparator.comparingLong(Item::x).reversed().thenComparingLong(Item::id));
            long rank = 0;
            long dense = 0;
            for (int i = 0; i < p.size(); i++) {
                boolean newValue = i == 0 || p.get(i).x() != p.get(i - 1).x();
                dense += newValue ? 1 : 0;
                rank = newValue ? i + 1 : rank;
                long r = switch (function) {
                    case "ROW_NUMBER" -> i + 1;
                    case "RANK" -> rank;
                    default -> dense;
                };
                if (r >= from && r <= to) {
                    Item it = p.get(i);
                    out.add(withRank ? text(it.id(), it.k(), it.x(), r) : text(it.id(), it.k(), it.x()));
                }
            }
        }
        out.sort(null);
        return out;
    }

    private static List<Item> all(List<List<Item>> shards) {
        return shards.stream().flatMap(List::stream).toList();
    }

    /**
     * Over an insert-only input: top 3 with the row number into a sink keyed by (k, rn) (upserts by position), top 3
     * without it, ranks 2..4, and RANK / DENSE_RANK over a value with ties (a retract changelog each).
     */
    @Test
    void topNOfAnAppendOnlyStream() throws Exception {
        Random r = new Random(61);
        List<List<Item>> items = generate(r, 3, 200, 0, 30);
        String topBy = " FROM (SELECT id, k, x, %s() OVER (PARTITION BY k ORDER BY x DESC%s) AS rn FROM t) s WHERE %s;\n";
        String script = table(items)
                + sink("by_position", "id BIGINT, k INT, x BIGINT, rn BIGINT, PRIMARY KEY (k, rn) NOT ENFORCED")
                + sink("rows_only", "id BIGINT, k INT, x BIGINT")
                + sink("middle", "id BIGINT, k INT, x BIGINT, rn BIGINT")
                + sink("ranks", "id BIGINT, k INT, x BIGINT, rn BIGINT")
                + sink("dense", "id BIGINT, k INT, x BIGINT, rn BIGINT")
                + "INSERT INTO by_position SELECT id, k, x, rn" + String.format(topBy, "ROW_NUMBER", ", id", "rn <= 3")
                + "INSERT INTO rows_only SELECT id, k, x" + String.format(topBy, "ROW_NUMBER", ", id", "rn < 4")
                + "INSERT INTO middle SELECT id, k, x, rn"
                + String.format(topBy, "ROW_NUMBER", ", id", "rn BETWEEN 2 AND 4")
                + "INSERT INTO ranks SELECT id, k, x, rn" + String.format(topBy, "RANK", "", "rn <= 3")
                + "INSERT INTO dense SELECT id, k, x, rn" + String.format(topBy, "DENSE_RANK", "", "rn <= 2");
        Map<String, List<Row>> out = run(script, "by_position", "rows_only", "middle", "ranks", "dense");
        List<Item> rows = all(items);
        List<String> top3 = ranked(rows, "ROW_NUMBER", 1, 3, true);
        assertEquals(7 * 3, top3.size(), "every partition (and NULL) has three rows");
        assertEquals(top3, Changelog.upsert(out.get("by_position"), 1, 3).values().stream()
                .map(x -> text(x.toArray())).sorted().toList());
        assertEquals(ranked(rows, "ROW_NUMBER", 1, 3, false), Changelog.materialize(out.get("rows_only")));
        assertEquals(ranked(rows, "ROW_NUMBER", 2, 4, true), Changelog.materialize(out.get("middle")));
        assertEquals(ranked(rows, "RANK", 1, 3, true), Changelog.materialize(out.get("ranks")));
        List<String> dense = ranked(rows, "DENSE_RANK", 1, 2, true);
        assertTrue(dense.size() > 2 * 7, "ties make DENSE_RANK keep more rows than positions: " + dense.size());
        assertEquals(dense, Changelog.materialize(out.get("dense")));
        // Append-only TopN without the rank: at most one row leaves for each that enters.
        long deletes = out.get("rows_only").stream().filter(x -> !x.kind().isAccumulate()).count();
        long inserts = out.get("rows_only").size() - deletes;
        assertEquals(inserts - deletes, ranked(rows, "ROW_NUMBER", 1, 3, false).size());
    }

    /**
     * Over an updating input (per (g, k) a sum that rises and falls, deleted once the group has 4 rows): the top 2
     * groups per k by sum, with and without the row number, are those of the final sums.
     */
    @Test
    void topNOfAnUpdatingInput() throws Exception {
        Random r = new Random(62);
        List<List<Item>> items = generate(r, 3, 250, -50, 50);
        String groups = "CREATE VIEW sums AS SELECT MOD(id, 37) AS g, k, SUM(x) AS s FROM t WHERE k IS NOT NULL"
                + " GROUP BY MOD(id, 37), k HAVING COUNT(*) < 4;\n";
        String top = " FROM (SELECT g, k, s, ROW_NUMBER() OVER (PARTITION BY k ORDER BY s DESC, g) AS rn FROM sums) q"
                + " WHERE rn <= 2;\n";
        Map<String, List<Row>> out = run(table(items) + groups
                + sink("keyed", "g BIGINT, k INT, s BIGINT, rn BIGINT, PRIMARY KEY (k, rn) NOT ENFORCED")
                + sink("plain", "g BIGINT, k INT, s BIGINT")
                + "INSERT INTO keyed SELECT g, k, s, rn" + top
                + "INSERT INTO plain SELECT g, k, s" + top, "keyed", "plain");
        Map<List<Object>, long[]> sums = new TreeMap<>(Comparator.comparing(Object::toString));
        for (Item i : all(items)) {
            if (i.k() != null) {
                sums.computeIfAbsent(List.of(i.id() % 37, i.k()), x -> new long[2]);
                long[] sc = sums.get(List.of(i.id() % 37, i.k()));
                sc[0] += i.x();
                sc[1]++;
            }
        }
        // The final groups as items: id = g, k, x = s; ranked by s DESC then g, as the query orders.
        List<Item> finalGroups = sums.entrySet().stream().filter(e -> e.getValue()[1] < 4)
                .map(e -> new Item((Long) e.getKey().get(0), (Integer) e.getKey().get(1), e.getValue()[0])).toList();
        ToLongFunction<Row> kind = x -> x.kind().isAccumulate() ? 0 : 1;
        assertTrue(out.get("plain").stream().mapToLong(kind).sum() > 10, "rows leave the top as sums change");
        List<String> expected = ranked(finalGroups, "ROW_NUMBER", 1, 2, true);
        assertEquals(expected, Changelog.upsert(out.get("keyed"), 1, 3).values().stream()
                .map(x -> text(x.toArray())).sorted().toList());
        assertEquals(ranked(finalGroups, "ROW_NUMBER", 1, 2, false), Changelog.materialize(out.get("plain")));
        assertEquals(expected.stream().map(x -> x.substring(0, x.lastIndexOf('|'))).sorted()
                .collect(Collectors.toList()), Changelog.materialize(out.get("plain")));
    }

    /**
     * The strategy and changelog follow the input: append-only TopN over inserts, retract TopN over an updating
     * input; with the row number, updates keyed by (partition, rn); without it, inserts and deletes; deduplication
     * and window TopN as Flink plans them. The state TTL reaches the operator.
     */
    @Test
    void planShowsStrategyChangelogAndUpsertKeys() {
        String ddl = "SET 'table.exec.state.ttl' = '1 h';\n"
                + "CREATE TABLE ev (k INT, x BIGINT, ts TIMESTAMP(3), p AS PROCTIME(), WATERMARK FOR ts AS"
                + " withOffset(ts, 1000)) WITH (type = 'values', id = 'none');\n"
                + sink("o", "k INT, x BIGINT, rn BIGINT, PRIMARY KEY (k, rn) NOT ENFORCED") + sink("r", "k INT, x BIGINT")
                + sink("d", "k INT, x BIGINT") + sink("w", "ws TIMESTAMP(3), k INT, x BIGINT");
        String top = " FROM (SELECT k, x, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x DESC) AS rn FROM %s) t"
                + " WHERE rn <= 2;\n";
        PlannedJob job = new ScriptPlanner(PlannerContext.defaults()).plan("t", (ddl
                + "INSERT INTO o SELECT k, x, rn" + String.format(top, "ev")
                + "INSERT INTO r SELECT k, x" + String.format(top, "(SELECT k, SUM(x) AS x FROM ev GROUP BY k)")
                + "INSERT INTO d SELECT k, x FROM (SELECT k, x, ROW_NUMBER() OVER (PARTITION BY k ORDER BY p) AS rn"
                + " FROM ev) t WHERE rn = 1;\n"
                + "INSERT INTO w SELECT window_start, k, x FROM (SELECT window_start, window_end, k, x, ROW_NUMBER()"
                + " OVER (PARTITION BY window_start, window_end, k ORDER BY ts DESC) AS rn FROM TABLE(TUMBLE(TABLE ev,"
                + " DESCRIPTOR(ts), INTERVAL '1' MINUTE))) t WHERE rn = 1;\n").replace("${RUN}", "plan"));
        List<RankNode> ranks = ScriptPlannerTest.nodes(job.graph(), RankNode.class);
        assertEquals(List.of(true, false), ranks.stream().map(RankNode::appendOnlyInput).toList());
        assertEquals(3_600_000L, ranks.get(0).stateTtlMillis());
        String appendTop = job.physicalPlans().get(0);
        assertTrue(appendTop.contains("Rank(rankType=ROW_NUMBER, rankRange=[rankStart=1, rankEnd=2], partitionBy=[k],"
                + " orderBy=[x DESC]"), appendTop);
        assertTrue(appendTop.contains("$watermark, rn]) changelogMode=[I,UA] upsertKeys=[[k, rn]]"), appendTop);
        assertTrue(job.physicalPlans().get(1).contains("select=[k, x]) changelogMode=[I,D] upsertKeys=[[k]]\n"
                + "    Exchange(distribution=[hash[k]]) changelogMode=[I,UB,UA]"), job.physicalPlans().get(1));
        assertTrue(job.physicalPlans().get(2).contains("Deduplicate(keep=[FirstRow], key=[k], order=[PROCTIME])"
                + " changelogMode=[I] upsertKeys=[[k]]"), job.physicalPlans().get(2));
        assertTrue(job.physicalPlans().get(3).contains("WindowRank(rankType=ROW_NUMBER, rankRange=[rankStart=1,"
                + " rankEnd=1]"), job.physicalPlans().get(3));
        assertEquals(1, ScriptPlannerTest.nodes(job.graph(), WindowRankNode.class).size());
    }

    /** NULLs sort as in Flink: first with ASC, last with DESC. */
    @Test
    void nullsSortFirstAscendingAndLastDescending() throws Exception {
        Random r = new Random(63);
        List<List<Item>> items = generate(r, 2, 100, 0, 1000);
        String top = " SELECT id, x FROM (SELECT id, x, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x %s, id) AS rn"
                + " FROM t WHERE k IS NOT NULL) s WHERE rn <= 3;\n";
        Map<String, List<Row>> out = run(table(items, 5) + sink("up", "id BIGINT, x BIGINT")
                + sink("down", "id BIGINT, x BIGINT") + "INSERT INTO up" + String.format(top, "ASC")
                + "INSERT INTO down" + String.format(top, "DESC"), "up", "down");
        Map<Integer, List<Item>> partitions = new TreeMap<>();
        all(items).stream().filter(i -> i.k() != null)
                .forEach(i -> partitions.computeIfAbsent(i.k(), k -> new ArrayList<>()).add(i));
        List<String> asc = new ArrayList<>();
        List<String> desc = new ArrayList<>();
        Comparator<Item> nullFirst = Comparator.comparing(i -> i.id() % 5 != 0);
        ToLongFunction<Item> value = i -> i.id() % 5 == 0 ? 0 : i.x();
        for (List<Item> p : partitions.values()) {
            p.sort(nullFirst.thenComparingLong(value).thenComparingLong(Item::id));
            p.stream().limit(3).forEach(i -> asc.add(text(i.id(), i.id() % 5 == 0 ? null : i.x())));
            p.sort(nullFirst.reversed().thenComparing(Comparator.comparingLong(value).reversed())
                    .thenComparingLong(Item::id));
            p.stream().limit(3).forEach(i -> desc.add(text(i.id(), i.id() % 5 == 0 ? null : i.x())));
        }
        asc.sort(null);
        desc.sort(null);
        assertTrue(asc.stream().anyMatch(x -> x.endsWith("|null")), "NULLs lead ascending");
        assertTrue(desc.stream().noneMatch(x -> x.endsWith("|null")), "NULLs trail descending");
        assertEquals(asc, Changelog.materialize(out.get("up")));
        assertEquals(desc, Changelog.materialize(out.get("down")));
    }
}
