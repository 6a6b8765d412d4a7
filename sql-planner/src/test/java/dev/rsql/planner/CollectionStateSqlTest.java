package dev.rsql.planner;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Aggregates holding collections (DISTINCT values, value lists) and regular joins with many rows per key, whose
 * state is one entry per element, over changelogs with updates and deletes, compared with a direct computation of
 * the final tables.
 */
class CollectionStateSqlTest {

    /** Updates of a row: its latest version counts; a version with {@code v = 0} is a delete. */
    private record Version(int id, String g, Long v, String s) {
        String json() {
            return "{\"id\":" + id + ",\"g\":\"" + g + "\"" + (v == null ? "" : ",\"v\":" + v) + ",\"s\":\"" + s + "\"}";
        }
    }

    /**
     * Random versions of {@code ids} rows, interleaved, in one shard (a row's versions stay in order); what
     * {@code LAST_VALUE} of each column makes of each row in {@code latest}.
     */
    private static List<String> versions(Random r, int ids, int groups, int values, Map<Integer, Version> latest) {
        List<List<Version>> pending = new ArrayList<>();
        for (int id = 0; id < ids; id++) {
            List<Version> vs = new ArrayList<>();
            for (int n = 1 + r.nextInt(4); n > 0; n--) {
                vs.add(new Version(id, "g" + r.nextInt(groups), r.nextInt(10) == 0 ? null : (long) r.nextInt(values),
                        "s" + r.nextInt(values)));
            }
            // LAST_VALUE skips NULLs: the row's v is its last non-NULL one
            Version last = vs.get(vs.size() - 1);
            Long v = vs.stream().map(Version::v).filter(Objects::nonNull).reduce((x, y) -> y).orElse(null);
            latest.put(id, new Version(id, last.g(), v, last.s()));
            pending.add(vs);
        }
        List<String> out = new ArrayList<>();
        List<int[]> cursors = new ArrayList<>();
        for (int i = 0; i < ids; i++) {
            cursors.add(new int[] {i, 0});
        }
        while (!cursors.isEmpty()) {
            int[] c = cursors.get(r.nextInt(cursors.size()));
            out.add(pending.get(c[0]).get(c[1]++).json());
            if (c[1] == pending.get(c[0]).size()) {
                cursors.remove(c);
            }
        }
        return out;
    }

    private static String table(String name, List<String> payloads) {
        String id = name + "-" + System.nanoTime();
        ValuesSourceFactory.register(id, payloads);
        return "CREATE TABLE " + name + " (id INT, g VARCHAR, v BIGINT, s VARCHAR) WITH (type = 'values', id = '"
                + id + "');\n";
    }

    /** The live rows of a table: the latest versions not deleted ({@code v = 0}). */
    private static List<Version> live(Map<Integer, Version> latest) {
        return latest.values().stream().filter(x -> x.v() == null || x.v() != 0).collect(Collectors.toList());
    }

    @Test
    void distinctAndListAggregatesOverUpdatesAndDeletes() throws Exception {
        Random r = new Random(131);
        Map<Integer, Version> latest = new TreeMap<>();
        List<String> input = versions(r, 1500, 4, 40, latest);
        String script = table("ev", input)
                + "CREATE VIEW cur AS SELECT id, LAST_VALUE(g) AS g, LAST_VALUE(v) AS v, LAST_VALUE(s) AS s"
                + " FROM ev GROUP BY id;\n"
                + "CREATE VIEW live AS SELECT * FROM cur WHERE v IS NULL OR v <> 0;\n"
                + sink("o", "g VARCHAR, n BIGINT, cv BIGINT, sv BIGINT, cs BIGINT, ca VARCHAR, cgs BIGINT")
                + "INSERT INTO o SELECT g, COUNT(*), COUNT(DISTINCT v), SUM(DISTINCT v), COUNT(DISTINCT s),"
                + " CONCAT_AGG('|', s), COUNT(DISTINCT g, s) FROM live GROUP BY g";
        List<Row> rows = run(script, "o").get("o");

        Map<String, List<Version>> groups = live(latest).stream()
                .collect(Collectors.groupingBy(Version::g, TreeMap::new, Collectors.toList()));
        List<String> expected = new ArrayList<>();
        groups.forEach((g, vs) -> {
            TreeSet<Long> distinct = vs.stream().map(Version::v).filter(Objects::nonNull)
                    .collect(Collectors.toCollection(TreeSet::new));
            long distinctS = vs.stream().map(Version::s).distinct().count();
            expected.add(text(g, (long) vs.size(), (long) distinct.size(),
                    distinct.isEmpty() ? null : distinct.stream().mapToLong(Long::longValue).sum(), distinctS,
                    joinSorted(vs.stream().map(Version::s).collect(Collectors.toList())), distinctS));
        });
        List<String> actual = Changelog.materialize(rows).stream().map(CollectionStateSqlTest::sortConcat)
                .collect(Collectors.toList());
        assertEquals(expected, actual);
        assertTrue(rows.stream().anyMatch(x -> x.kind() == RowKind.UPDATE_BEFORE), "the groups were updated");
    }

    /** CONCAT_AGG's order is the arrival order (one shard, append-only input). */
    @Test
    void concatAggKeepsArrivalOrderInAGroupBy() throws Exception {
        Random r = new Random(132);
        List<String> input = new ArrayList<>();
        Map<String, List<String>> expected = new TreeMap<>();
        for (int i = 0; i < 2000; i++) {
            String g = "g" + r.nextInt(3);
            String s = "s" + r.nextInt(50);
            input.add(new Version(i, g, (long) i, s).json());
            expected.computeIfAbsent(g, x -> new ArrayList<>()).add(s);
        }
        List<Row> rows = run(table("ev", input)
                + sink("o", "g VARCHAR, ca VARCHAR, fv VARCHAR, lv VARCHAR, PRIMARY KEY (g) NOT ENFORCED")
                + "INSERT INTO o SELECT g, CONCAT_AGG(s), FIRST_VALUE(s), LAST_VALUE(s) FROM ev GROUP BY g", "o")
                .get("o");
        Map<String, List<Object>> table = new TreeMap<>();
        Changelog.upsert(rows, 0).forEach((k, v) -> table.put((String) k.get(0), v));
        Map<String, List<Object>> want = new TreeMap<>();
        expected.forEach((g, ss) -> want.put(g, Arrays.asList(g, String.join("\n", ss), ss.get(0),
                ss.get(ss.size() - 1))));
        assertEquals(want, table);
    }

    /**
     * Inner, left and full joins of two updating tables on a key of few values (hundreds of rows per key), with a
     * residual condition; rows move between keys, change and are deleted. The joined tables equal a nested loop over
     * the final tables.
     */
    @Test
    void joinsWithManyRowsPerKeyEqualANestedLoop() throws Exception {
        Random r = new Random(133);
        Map<Integer, Version> left = new TreeMap<>();
        Map<Integer, Version> right = new TreeMap<>();
        List<String> leftInput = versions(r, 700, 3, 12, left);
        List<String> rightInput = versions(r, 500, 4, 12, right);
        String live = " SELECT id, g, v, s FROM (SELECT id, LAST_VALUE(g) AS g, LAST_VALUE(v) AS v, LAST_VALUE(s) AS s"
                + " FROM %s GROUP BY id) WHERE v IS NULL OR v <> 0";
        String columns = "lid INT, lg VARCHAR, lv BIGINT, rid INT, rv BIGINT";
        String select = " SELECT l.id, l.g, l.v, r.id, r.v FROM lt l %s JOIN rt r ON l.g = r.g AND l.v <= r.v + 3;\n";
        Map<String, List<Row>> out = run(table("la", leftInput) + table("ra", rightInput)
                + "CREATE VIEW lt AS" + String.format(live, "la") + ";\n"
                + "CREATE VIEW rt AS" + String.format(live, "ra") + ";\n"
                + sink("inner_j", columns) + sink("left_j", columns) + sink("full_j", columns)
                + "INSERT INTO inner_j" + String.format(select, "INNER")
                + "INSERT INTO left_j" + String.format(select, "LEFT")
                + "INSERT INTO full_j" + String.format(select, "FULL"), "inner_j", "left_j", "full_j");

        List<Version> ls = live(left);
        List<Version> rs = live(right);
        List<String> inner = new ArrayList<>();
        List<String> leftOuter = new ArrayList<>();
        List<String> full = new ArrayList<>();
        Map<Integer, Integer> rightMatches = new HashMap<>();
        for (Version l : ls) {
            int matches = 0;
            for (Version x : rs) {
                if (l.g().equals(x.g()) && l.v() != null && x.v() != null && l.v() <= x.v() + 3) {
                    String row = text(l.id(), l.g(), l.v(), x.id(), x.v());
                    inner.add(row);
                    matches++;
                    rightMatches.merge(x.id(), 1, Integer::sum);
                }
            }
            if (matches == 0) {
                leftOuter.add(text(l.id(), l.g(), l.v(), null, null));
            }
        }
        leftOuter.addAll(inner);
        full.addAll(leftOuter);
        for (Version x : rs) {
            if (!rightMatches.containsKey(x.id())) {
                full.add(text(null, null, null, x.id(), x.v()));
            }
        }
        assertTrue(inner.size() > 20_000, "many matches per key: " + inner.size());
        assertEquals(sorted(inner), Changelog.materialize(out.get("inner_j")));
        assertEquals(sorted(leftOuter), Changelog.materialize(out.get("left_j")));
        assertEquals(sorted(full), Changelog.materialize(out.get("full_j")));
        assertTrue(out.get("left_j").stream().anyMatch(x -> x.kind() == RowKind.DELETE), "rows were taken back");
    }

    private static List<String> sorted(List<String> rows) {
        List<String> out = new ArrayList<>(rows);
        out.sort(null);
        return out;
    }

    private static String joinSorted(List<String> parts) {
        return String.join("|", sorted(parts));
    }

    /** The CONCAT_AGG field (the sixth) with its parts sorted: over updates only its multiset is defined. */
    private static String sortConcat(String row) {
        List<String> fields = new ArrayList<>(Arrays.asList(row.split("\\|", -1)));
        // The CONCAT_AGG parts sit between the first five fields and the last one.
        List<String> parts = new ArrayList<>(fields.subList(5, fields.size() - 1));
        List<String> head = new ArrayList<>(fields.subList(0, 5));
        head.add(joinSorted(parts));
        head.add(fields.get(fields.size() - 1));
        return String.join("|", head);
    }
}
