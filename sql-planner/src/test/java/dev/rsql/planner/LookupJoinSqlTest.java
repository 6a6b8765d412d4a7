package dev.rsql.planner;

import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;

import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lookup joins of a random stream (three shards) with file dimension tables (JSON lines with a primary key, fully
 * or partially cached; CSV with a non-unique two-column INDEX), INNER and LEFT, with residual predicates and constant filters on the table,
 * in Flink's {@code AS OF s.proc} and Blink's {@code AS OF PROCTIME()} forms, compared with nested loops here.
 */
class LookupJoinSqlTest {

    @TempDir
    Path dir;

    private record Event(Integer k, int g, long v) {
    }

    private record Dim1(int id, String name, long score) {
    }

    private record Dim2(int a, int b, long w) {
    }

    @SuppressWarnings("unchecked")
    private static String stream(List<List<Event>> shards) {
        String id = "s-" + UUID.randomUUID();
        List<String>[] payloads = shards.stream().map(rows -> rows.stream()
                .map(e -> "{\"k\":" + e.k() + ",\"g\":" + e.g() + ",\"v\":" + e.v() + "}").toList())
                .toArray(List[]::new);
        ValuesSourceFactory.register(id, payloads);
        return "CREATE TABLE s (k INT, g INT, v BIGINT, proc AS PROCTIME()) WITH (type = 'values', id = '" + id
                + "');\n";
    }

    @Test
    void joinsAStreamWithFileDimensionTables() throws Exception {
        Random r = new Random(121);
        List<List<Event>> shards = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            List<Event> rows = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                rows.add(new Event(r.nextInt(15) == 0 ? null : r.nextInt(25), r.nextInt(4), r.nextInt(100)));
            }
            shards.add(rows);
        }
        List<Dim1> dim1 = new ArrayList<>();
        StringBuilder json = new StringBuilder();
        for (int id = 0; id < 25; id++) {
            if (r.nextInt(5) != 0) {
                Dim1 d = new Dim1(id, "n" + r.nextInt(6), r.nextInt(100));
                dim1.add(d);
                json.append("{\"id\":").append(d.id()).append(",\"name\":\"").append(d.name())
                        .append("\",\"score\":").append(d.score()).append("}\n");
            }
        }
        List<Dim2> dim2 = new ArrayList<>();
        StringBuilder csv = new StringBuilder();
        for (int i = 0; i < 120; i++) {
            Dim2 d = new Dim2(r.nextInt(25), r.nextInt(4), r.nextInt(1000));
            dim2.add(d);
            csv.append(d.a()).append(',').append(d.b()).append(',').append(d.w()).append('\n');
        }
        Path f1 = Files.writeString(dir.resolve("dim1.jsonl"), json);
        Path f2 = Files.writeString(dir.resolve("dim2.csv"), csv);
        String script = stream(shards)
                + "CREATE TABLE dim1 (id INT, name STRING, score BIGINT, PRIMARY KEY (id) NOT ENFORCED) "
                + "WITH ('connector' = 'file', 'path' = '" + f1 + "', 'lookup.cache' = 'FULL');\n"
                + "CREATE TABLE dim1p (id INT, name STRING, score BIGINT, UNIQUE INDEX (id)) WITH ('connector' = "
                + "'file', 'path' = '" + f1 + "', 'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '8', "
                + "'lookup.partial-cache.expire-after-write' = '1 h');\n"
                + "CREATE TABLE dim2 (a INT, b INT, w BIGINT, INDEX (a, b)) "
                + "WITH (type = 'file', filePath = '" + f2 + "', format = 'csv');\n"
                + sink("inner_out", "k INT, v BIGINT, name STRING, score BIGINT")
                + sink("left_out", "k INT, v BIGINT, name STRING, score BIGINT")
                + sink("multi_out", "k INT, g INT, v BIGINT, w BIGINT")
                + sink("partial_out", "k INT, v BIGINT, name STRING, score BIGINT")
                + "INSERT INTO partial_out SELECT s.k, s.v, d.name, d.score FROM s JOIN dim1p FOR SYSTEM_TIME AS OF "
                + "s.proc AS d ON s.k = d.id AND s.v < d.score + 50 AND d.name <> 'n3';\n"
                + "INSERT INTO inner_out SELECT s.k, s.v, d.name, d.score FROM s JOIN dim1 FOR SYSTEM_TIME AS OF "
                + "s.proc AS d ON s.k = d.id AND s.v < d.score + 50 AND d.name <> 'n3';\n"
                + "INSERT INTO left_out SELECT s.k, s.v, d.name, d.score FROM s LEFT JOIN dim1 FOR SYSTEM_TIME AS "
                + "OF s.proc AS d ON d.id = s.k AND s.v < d.score + 50 AND d.name <> 'n3';\n"
                + "INSERT INTO multi_out SELECT s.k, s.g, s.v, d.w FROM s LEFT JOIN dim2 FOR SYSTEM_TIME AS OF "
                + "PROCTIME() AS d ON s.k = d.a AND s.g = d.b WHERE s.v > 10;\n";
        Map<String, List<Row>> out = run(script, "inner_out", "left_out", "multi_out", "partial_out");

        List<Event> events = shards.stream().flatMap(List::stream).toList();
        List<String> inner = new ArrayList<>();
        List<String> left = new ArrayList<>();
        List<String> multi = new ArrayList<>();
        for (Event e : events) {
            List<String> matches = new ArrayList<>();
            for (Dim1 d : dim1) {
                if (Objects.equals(e.k(), d.id()) && e.v() < d.score() + 50 && !d.name().equals("n3")) {
                    matches.add(text(e.k(), e.v(), d.name(), d.score()));
                }
            }
            inner.addAll(matches);
            left.addAll(matches.isEmpty() ? List.of(text(e.k(), e.v(), null, null)) : matches);
            if (e.v() > 10) {
                boolean any = false;
                for (Dim2 d : dim2) {
                    if (Objects.equals(e.k(), d.a()) && e.g() == d.b()) {
                        multi.add(text(e.k(), e.g(), e.v(), d.w()));
                        any = true;
                    }
                }
                if (!any) {
                    multi.add(text(e.k(), e.g(), e.v(), null));
                }
            }
        }
        inner.sort(null);
        left.sort(null);
        multi.sort(null);
        assertTrue(inner.size() > 150 && multi.stream().filter(t -> !t.endsWith("|null")).count() > 100,
                "too few matches to be a test");
        assertEquals(inner, Changelog.materialize(out.get("inner_out")));
        assertEquals(left, Changelog.materialize(out.get("left_out")));
        assertEquals(multi, Changelog.materialize(out.get("multi_out")));
        assertEquals(inner, Changelog.materialize(out.get("partial_out")), "a partial cache gives the same join");
    }

    /** An updating input (a running sum per key) passes its changelog through: applied, it is the final join. */
    @Test
    void passesAChangelogThrough() throws Exception {
        Random r = new Random(122);
        List<List<Event>> shards = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            List<Event> rows = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                rows.add(new Event(r.nextInt(12), 0, r.nextInt(50)));
            }
            shards.add(rows);
        }
        StringBuilder json = new StringBuilder();
        for (int id = 0; id < 12; id += 2) {
            json.append("{\"id\":").append(id).append(",\"name\":\"n").append(id).append("\"}\n");
        }
        Path f = Files.writeString(dir.resolve("names.jsonl"), json);
        Map<String, List<Row>> out = run(stream(shards)
                + "CREATE TABLE names (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = "
                + "'file', 'path' = '" + f + "');\n"
                + "CREATE VIEW sums AS SELECT k, SUM(v) AS total FROM s GROUP BY k;\n"
                + sink("o", "k INT, total BIGINT, name STRING")
                + "INSERT INTO o SELECT sums.k, sums.total, d.name FROM sums LEFT JOIN names FOR SYSTEM_TIME AS OF "
                + "PROCTIME() AS d ON sums.k = d.id;\n", "o");
        Map<Integer, Long> sums = new java.util.TreeMap<>();
        shards.stream().flatMap(List::stream).forEach(e -> sums.merge(e.k(), e.v(), Long::sum));
        List<String> expected = new ArrayList<>();
        sums.forEach((k, total) -> expected.add(text(k, total, k % 2 == 0 ? "n" + k : null)));
        expected.sort(null);
        assertTrue(out.get("o").stream().anyMatch(x -> !x.kind().isAccumulate()), "no retraction: not a changelog");
        assertEquals(expected, Changelog.materialize(out.get("o")));
    }

    /** A dimension table with a primary key is joined on it (or an INDEX), and its options are checked by check. */
    @Test
    void refusesJoinsOffTheTablesKeysAndBadCacheOptions() throws Exception {
        Path f = Files.writeString(dir.resolve("d.jsonl"), "{\"id\":1,\"name\":\"a\"}\n");
        String tables = stream(List.of(List.of()))
                + "CREATE TABLE d (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'file', "
                + "'path' = '" + f + "'%s);\n" + sink("o", "k INT, name STRING").replace("${RUN}", "x");
        PlanningException e = assertThrows(PlanningException.class, () -> new ScriptPlanner(PlannerContext.defaults())
                .plan("t", String.format(tables, "") + "INSERT INTO o SELECT s.k, d.name FROM s JOIN d FOR "
                        + "SYSTEM_TIME AS OF s.proc AS d ON s.k = CHAR_LENGTH(d.name);\n"));
        assertTrue(e.getMessage().contains("lookup join with d needs equalities on its primary key or an INDEX: (id)")
                && e.getMessage().contains("line 4"), e.getMessage());
        PlanningException bad = assertThrows(PlanningException.class, () -> new ScriptPlanner(
                PlannerContext.defaults()).plan("t", String.format(tables, ", 'lookup.cache' = 'ALL'")
                + "INSERT INTO o SELECT s.k, d.name FROM s JOIN d FOR SYSTEM_TIME AS OF s.proc AS d ON s.k = d.id;\n"));
        assertTrue(bad.getMessage().contains("'lookup.cache' must be FULL, PARTIAL or NONE"), bad.getMessage());
    }
}
