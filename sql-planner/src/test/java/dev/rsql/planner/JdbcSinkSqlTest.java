package dev.rsql.planner;

import dev.rsql.planner.RandomEvents.Event;
import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.testing.MariaDbServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static dev.rsql.planner.RandomEvents.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SQL jobs writing into a real MariaDB server through the JDBC connector, in Flink's and in rsqldb's options. */
class JdbcSinkSqlTest {

    @TempDir
    static Path dir;
    static MariaDbServer db;

    @BeforeAll
    static void startDatabase() throws Exception {
        db = MariaDbServer.start(dir.resolve("mariadb"));
    }

    @AfterAll
    static void stopDatabase() throws Exception {
        if (db != null) {
            db.close();
        }
    }

    private static String flinkSink(String name, String columns, String table, String extra) {
        return "CREATE TABLE " + name + " (" + columns + ") WITH ('connector' = 'jdbc', 'url' = '" + db.url()
                + "', 'table-name' = '" + table + "', 'username' = '" + db.user() + "', 'password' = '"
                + db.password() + "'" + extra + ");\n";
    }

    /**
     * A GROUP BY with a HAVING: groups are updated many times and enter and leave the filter, so the sink receives
     * upserts and deletes; the MariaDB table holds exactly the groups passing at the end, with their final values.
     */
    @Test
    void upsertSinkHoldsTheFinalTableOfAChangelog() throws Exception {
        db.execute("CREATE TABLE totals (k VARCHAR(10), s VARCHAR(10), total BIGINT, n BIGINT, PRIMARY KEY (k, s))");
        List<List<Event>> shards = RandomEvents.generate(43, 3, 700);
        String script = RandomEvents.eventTable(shards)
                + flinkSink("totals", "k VARCHAR, s VARCHAR, total BIGINT, n BIGINT, PRIMARY KEY (k, s) NOT ENFORCED",
                "totals", ", 'sink.buffer-flush.max-rows' = '25'")
                + "INSERT INTO totals SELECT k, s, SUM(v - 50), COUNT(*) FROM ev GROUP BY k, s"
                + " HAVING SUM(v - 50) < 0;\n";
        TestJob job = new TestJob("jdbc_upsert", script);
        job.awaitCompletion();

        Map<String, List<Event>> groups = RandomEvents.all(shards).stream()
                .collect(Collectors.groupingBy(e -> text(e.k(), e.s()), TreeMap::new, Collectors.toList()));
        List<String> expected = new ArrayList<>();
        groups.forEach((group, events) -> {
            long sum = events.stream().map(Event::v).filter(Objects::nonNull).mapToLong(v -> v - 50).sum();
            if (sum < 0) {
                expected.add(group + "|" + sum + "|" + events.size());
            }
        });
        expected.sort(null);
        assertTrue(expected.size() > 10 && expected.size() < 90, "passing and failing groups: " + expected.size());
        List<String> got = db.query("SELECT k, s, total, n FROM totals");
        got.sort(null);
        assertEquals(expected, got);
        Map<String, Long> counters = db.status("Com_delete");
        assertTrue(counters.getOrDefault("Com_delete", 0L) > 0, "groups leaving the HAVING were deleted: " + counters);
    }

    /** An append-only query into a table without a key (rsqldb's options): every row once. */
    @Test
    void appendSinkWithRsqldbOptions() throws Exception {
        db.execute("CREATE TABLE big_ones (k VARCHAR(10), v BIGINT, d DOUBLE, ts DATETIME(3))");
        List<List<Event>> shards = RandomEvents.generate(44, 2, 600);
        String script = RandomEvents.eventTable(shards)
                + "CREATE TABLE big_ones (k VARCHAR, v BIGINT, d DOUBLE, ts TIMESTAMP(3)) WITH (type = 'rds', url = '"
                + db.url() + "', tableName = 'big_ones', userName = '" + db.user() + "', password = '"
                + db.password() + "', batchSize = '50');\n"
                + "INSERT INTO big_ones SELECT k, v, d, ts FROM ev WHERE v > 80;\n";
        TestJob job = new TestJob("jdbc_append", script);
        job.awaitCompletion();
        java.time.format.DateTimeFormatter f = java.time.format.DateTimeFormatter
                .ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(java.time.ZoneOffset.UTC);
        List<String> expected = RandomEvents.all(shards).stream().filter(e -> e.v() != null && e.v() > 80)
                .map(e -> text(e.k(), e.v(), e.d(), f.format(java.time.Instant.ofEpochMilli(e.ts()))))
                .sorted().collect(Collectors.toList());
        List<String> got = db.query("SELECT k, v, d, CAST(ts AS CHAR) FROM big_ones");
        got.sort(null);
        assertTrue(expected.size() > 50);
        assertEquals(expected, got);
    }

    /** An updating query into a JDBC table without a primary key is refused when planned. */
    @Test
    void anUpdatingQueryNeedsAKey() {
        String script = RandomEvents.eventTable(RandomEvents.generate(1, 1, 10))
                + flinkSink("nokey", "k VARCHAR, n BIGINT", "nokey", "")
                + "INSERT INTO nokey SELECT k, COUNT(*) FROM ev GROUP BY k;\n";
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> new ScriptPlanner(PlannerContext.defaults()).plan("nokey", script));
        assertTrue(e.getMessage().contains("nokey"), e.getMessage());
        assertTrue(!e.getMessage().contains(db.password()), e.getMessage());
    }

    /** Option mistakes fail at plan time ({@code rsql check}) with the statement's line, never showing a password. */
    @Test
    void badOptionsFailAtCheckWithoutThePassword() {
        String events = RandomEvents.eventTable(RandomEvents.generate(1, 1, 10));
        String urlWithPassword = "jdbc:mysql://rsql:url-secret-9@127.0.0.1:" + db.port() + "/test";
        String badRetries = events
                + "CREATE TABLE t (k VARCHAR, v BIGINT) WITH ('connector' = 'jdbc', 'url' = '" + urlWithPassword
                + "', 'table-name' = 't', 'password' = 'pw-secret-7', 'sink.max-retries' = 'many');\n"
                + "INSERT INTO t SELECT k, v FROM ev;\n";
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> new ScriptPlanner(PlannerContext.defaults()).plan("bad", badRetries));
        assertTrue(e.getMessage().contains("sink.max-retries") && e.getMessage().contains("line 2"), e.getMessage());
        assertTrue(!e.getMessage().contains("url-secret-9") && !e.getMessage().contains("pw-secret-7"),
                e.getMessage());
        String badUrl = events + "CREATE TABLE t (k VARCHAR, v BIGINT) WITH (type = 'rds', url = 'jdbc:oracle:thin:"
                + "scott/tiger@db:1521', tableName = 't');\nINSERT INTO t SELECT k, v FROM ev;\n";
        Exception u = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> new ScriptPlanner(PlannerContext.defaults()).plan("bad", badUrl));
        assertTrue(u.getMessage().contains("MySQL or MariaDB JDBC URL") && !u.getMessage().contains("tiger"),
                u.getMessage());
    }
}
