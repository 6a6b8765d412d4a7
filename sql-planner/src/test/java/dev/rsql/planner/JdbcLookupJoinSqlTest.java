package dev.rsql.planner;

import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.MariaDbServer;
import dev.rsql.runtime.testing.ScriptedSourceFactory;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lookup joins of streams with MariaDB tables through the JDBC connector: full and partial caches and uncached
 * point queries, INNER and LEFT, in Flink's and rsqldb's options, compared with a nested loop here; and a running job
 * that sees a key inserted and a row updated in the database once its cache is reloaded or expires.
 */
class JdbcLookupJoinSqlTest {

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

    private static String dim(String name, String table, String options) {
        return "CREATE TABLE " + name + " (id INT, name STRING, score BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ("
                + "'connector' = 'jdbc', 'url' = '" + db.url() + "', 'table-name' = '" + table + "', 'username' = '"
                + db.user() + "', 'password' = '" + db.password() + "'" + options + ");\n";
    }

    private record Event(Integer k, long v) {
    }

    @Test
    @SuppressWarnings("unchecked")
    void joinsAStreamWithAMariaDbTableInEveryCacheMode() throws Exception {
        Random r = new Random(17);
        Map<Integer, String[]> users = new TreeMap<>();
        StringBuilder insert = new StringBuilder("INSERT INTO users VALUES ");
        for (int id = 0; id < 40; id++) {
            if (r.nextInt(4) != 0) {
                String[] u = {"n" + r.nextInt(5), String.valueOf(r.nextInt(100))};
                users.put(id, u);
                insert.append(users.size() == 1 ? "" : ",").append("(").append(id).append(",'").append(u[0])
                        .append("',").append(u[1]).append(")");
            }
        }
        db.execute("CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(20), score BIGINT)", insert.toString());
        List<List<Event>> shards = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            List<Event> rows = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                rows.add(new Event(r.nextInt(20) == 0 ? null : r.nextInt(45), r.nextInt(100)));
            }
            shards.add(rows);
        }
        String id = "s-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, shards.stream().map(rows -> rows.stream()
                .map(e -> "{\"k\":" + e.k() + ",\"v\":" + e.v() + "}").toList()).toArray(List[]::new));
        String out = "k INT, v BIGINT, name STRING, score BIGINT";
        String script = "CREATE TABLE s (k INT, v BIGINT, proc AS PROCTIME()) WITH (type = 'values', id = '" + id
                + "');\n"
                + dim("users_full", "users", ", 'lookup.cache' = 'FULL'")
                + dim("users_partial", "users", ", 'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '8',"
                + " 'lookup.partial-cache.expire-after-write' = '1 h'")
                + dim("users_direct", "users", "")
                + "CREATE TABLE users_rds (id INT, name VARCHAR, score BIGINT, PRIMARY KEY (id)) WITH (type = 'rds',"
                + " url = '" + db.url() + "', tableName = 'users', userName = '" + db.user() + "', password = '"
                + db.password() + "', cacheTTLMs = '60000');\n"
                + sink("full_inner", out) + sink("full_left", out) + sink("partial_inner", out)
                + sink("partial_left", out) + sink("direct_left", out) + sink("rds_inner", out)
                + insertJoin("full_inner", "JOIN users_full FOR SYSTEM_TIME AS OF s.proc")
                + insertJoin("full_left", "LEFT JOIN users_full FOR SYSTEM_TIME AS OF s.proc")
                + insertJoin("partial_inner", "JOIN users_partial FOR SYSTEM_TIME AS OF s.proc")
                + insertJoin("partial_left", "LEFT JOIN users_partial FOR SYSTEM_TIME AS OF s.proc")
                + insertJoin("direct_left", "LEFT JOIN users_direct FOR SYSTEM_TIME AS OF s.proc")
                + insertJoin("rds_inner", "JOIN users_rds FOR SYSTEM_TIME AS OF PROCTIME()");
        Map<String, List<Row>> got = TestJob.run(script, "full_inner", "full_left", "partial_inner", "partial_left",
                "direct_left", "rds_inner");

        List<String> inner = new ArrayList<>();
        List<String> left = new ArrayList<>();
        for (Event e : shards.stream().flatMap(List::stream).toList()) {
            String[] u = e.k() == null ? null : users.get(e.k());
            boolean match = u != null && e.v() < Long.parseLong(u[1]) + 40;
            if (match) {
                inner.add(text(e.k(), e.v(), u[0], Long.parseLong(u[1])));
            }
            left.add(match ? text(e.k(), e.v(), u[0], Long.parseLong(u[1])) : text(e.k(), e.v(), null, null));
        }
        inner.sort(null);
        left.sort(null);
        assertTrue(inner.size() > 300 && left.size() - inner.size() > 100, "matches and misses: " + inner.size());
        assertEquals(inner, Changelog.materialize(got.get("full_inner")));
        assertEquals(left, Changelog.materialize(got.get("full_left")));
        assertEquals(inner, Changelog.materialize(got.get("partial_inner")));
        assertEquals(left, Changelog.materialize(got.get("partial_left")));
        assertEquals(left, Changelog.materialize(got.get("direct_left")));
        assertEquals(inner, Changelog.materialize(got.get("rds_inner")));
    }

    private static String insertJoin(String sink, String join) {
        return "INSERT INTO " + sink + " SELECT s.k, s.v, d.name, d.score FROM s " + join + " AS d ON s.k = d.id"
                + " AND s.v < d.score + 40;\n";
    }

    /**
     * A running job: after a row is updated and a key inserted in the database, a full cache shows both once it is
     * reloaded, and a partial cache once its entries (the missing key's too) expire.
     */
    @Test
    void aRunningJoinSeesInsertedKeysAndUpdatedRows() throws Exception {
        db.execute("CREATE TABLE prices (id INT PRIMARY KEY, name VARCHAR(20), score BIGINT)",
                "INSERT INTO prices VALUES (1, 'one', 10), (2, 'two', 20)");
        String id = "s-" + UUID.randomUUID();
        String out = "k INT, name STRING, score BIGINT";
        String script = "CREATE TABLE s (k INT, proc AS PROCTIME()) WITH (type = 'scripted', id = '" + id + "');\n"
                + dim("p_full", "prices", ", 'lookup.cache' = 'FULL', 'lookup.full-cache.periodic-reload.interval'"
                + " = '200 ms'")
                + dim("p_partial", "prices", ", 'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.expire-after-write'"
                + " = '200 ms'")
                + sink("full_out", out) + sink("partial_out", out)
                + "INSERT INTO full_out SELECT s.k, d.name, d.score FROM s JOIN p_full FOR SYSTEM_TIME AS OF s.proc"
                + " AS d ON s.k = d.id;\n"
                + "INSERT INTO partial_out SELECT s.k, d.name, d.score FROM s LEFT JOIN p_partial FOR SYSTEM_TIME AS"
                + " OF s.proc AS d ON s.k = d.id;\n";
        try (TestJob job = new TestJob("reloads", script)) {
            List<Object[]> rows = new CopyOnWriteArrayList<>();
            ScriptedSourceFactory.Shard shard = new ScriptedSourceFactory.Shard("s0", rows, 0);
            ScriptedSourceFactory.listener(id).shardsAssigned(List.of(shard));
            for (int k = 1; k <= 3; k++) {
                shard.append(new Object[] {k});
            }
            job.await("full_out", o -> o.size() == 2);
            job.await("partial_out", o -> o.size() == 3);
            assertEquals(List.of("1|one|10", "2|two|20"), texts(job.await("full_out", o -> true)));
            assertEquals(List.of("1|one|10", "2|two|20", "3|null|null"), texts(job.await("partial_out", o -> true)));

            db.execute("UPDATE prices SET score = 11 WHERE id = 1", "INSERT INTO prices VALUES (3, 'three', 30)");
            // probe with key 3 until both joins find it: the full cache was reloaded, the partial cache's miss expired
            Await.until("key 3 found by both joins", Duration.ofSeconds(30), () -> {
                shard.append(new Object[] {3});
                return now(job, "full_out").contains("3|three|30") && now(job, "partial_out").contains("3|three|30");
            });
            shard.append(new Object[] {1});
            // a full cache swaps the whole reloaded copy in: once key 3 is there, so is the update of key 1
            List<String> full = texts(job.await("full_out", o -> texts(o).contains("1|one|11")));
            List<String> partial = texts(job.await("partial_out", o -> texts(o).contains("1|one|11")));
            assertEquals(List.of("1|one|10", "1|one|11"), full.stream().filter(t -> t.startsWith("1|")).toList());
            assertEquals(List.of("1|one|10", "1|one|11"), partial.stream().filter(t -> t.startsWith("1|")).toList());
        }
    }

    /** The sink's rows so far. */
    private static List<String> now(TestJob job, String sink) {
        try {
            return texts(job.await(sink, o -> true));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> texts(List<Row> rows) {
        return rows.stream().map(r -> text(r.fields())).filter(Objects::nonNull).sorted().toList();
    }
}
