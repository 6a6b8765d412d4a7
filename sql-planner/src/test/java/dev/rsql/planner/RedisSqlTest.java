package dev.rsql.planner;

import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.RedisServer;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The redis connector against a real redis-server: a changelog (a CDC table) kept in Redis as strings and as hashes
 * with upserts and deletes, and Redis hashes and strings as dimension tables of lookup joins, uncached and behind the
 * partial cache, compared with a nested loop here.
 */
class RedisSqlTest {

    @TempDir
    static Path dir;
    static RedisServer redis;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisServer.start(dir.resolve("redis"));
    }

    @AfterAll
    static void stopRedis() throws Exception {
        if (redis != null) {
            redis.close();
        }
    }

    private static String with(String mode, String more) {
        return " WITH ('connector' = 'redis', 'host' = '127.0.0.1', 'port' = '" + redis.port() + "', 'password' = '"
                + redis.password() + "', 'mode' = '" + mode + "'" + more + ")";
    }

    /** A product table's changes (debezium-json) kept in Redis: deleted products are gone, updated ones current. */
    @Test
    void aChangelogIsKeptAsStringsAndHashes() throws Exception {
        Random r = new Random(3);
        Map<Long, String[]> table = new TreeMap<>();
        List<String> changes = new ArrayList<>();
        for (int step = 0; step < 400; step++) {
            long id = r.nextInt(60);
            String[] before = table.get(id);
            String[] after = {"商品" + r.nextInt(1000), String.valueOf(r.nextInt(500)), r.nextInt(5) == 0 ? null
                    : "cat" + r.nextInt(4)};
            if (before != null && r.nextInt(4) == 0) {
                changes.add("{\"before\":" + json(id, before) + ",\"after\":null,\"op\":\"d\"}");
                table.remove(id);
            } else {
                changes.add("{\"before\":" + (before == null ? "null" : json(id, before)) + ",\"after\":"
                        + json(id, after) + ",\"op\":\"" + (before == null ? "c" : "u") + "\"}");
                table.put(id, after);
            }
        }
        Path file = dir.resolve("products.jsonl");
        Files.write(file, changes, StandardCharsets.UTF_8);
        String prefix = "p" + UUID.randomUUID().toString().substring(0, 6) + ":";
        TestJob.run("CREATE TABLE products (id BIGINT, name STRING, price INT, category STRING,"
                + " PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '" + file
                + "', 'format' = 'debezium-json');\n"
                + "CREATE TABLE names (k STRING, name STRING, PRIMARY KEY (k) NOT ENFORCED)" + with("string", "") + ";\n"
                + "CREATE TABLE profiles (k STRING, name STRING, price INT, category STRING, PRIMARY KEY (k) NOT ENFORCED)"
                + with("hash", ", 'sink.buffer-flush.max-rows' = '7'") + ";\n"
                + "INSERT INTO names SELECT CONCAT('" + prefix + "n:', CAST(id AS STRING)), name FROM products;\n"
                + "INSERT INTO profiles SELECT CONCAT('" + prefix + "h:', CAST(id AS STRING)), name, price, category"
                + " FROM products;\n");

        assertEquals(table.size(), redis.cli("KEYS", prefix + "n:*").lines().count(), "one string per product");
        assertEquals(table.size(), redis.cli("KEYS", prefix + "h:*").lines().count(), "one hash per product");
        for (long id = 0; id < 60; id++) {
            String[] row = table.get(id);
            assertEquals(row == null ? "" : row[0], redis.cli("GET", prefix + "n:" + id), "name of " + id);
            String expected = row == null ? "" : "name\n" + row[0] + "\nprice\n" + row[1]
                    + (row[2] == null ? "" : "\ncategory\n" + row[2]);
            assertEquals(expected, redis.cli("HGETALL", prefix + "h:" + id), "hash of " + id);
        }
    }

    private static String json(long id, String[] row) {
        return "{\"id\":" + id + ",\"name\":\"" + row[0] + "\",\"price\":" + row[1] + ",\"category\":"
                + (row[2] == null ? "null" : "\"" + row[2] + "\"") + "}";
    }

    /** Lookups of hashes (a profile per user) and of hash fields, uncached and cached, INNER and LEFT. */
    @Test
    @SuppressWarnings("unchecked")
    void streamsAreEnrichedFromRedis() throws Exception {
        String prefix = "u" + UUID.randomUUID().toString().substring(0, 6) + ":";
        Random r = new Random(9);
        Map<Integer, String[]> users = new TreeMap<>();
        for (int u = 0; u < 30; u++) {
            if (r.nextInt(3) != 0) {
                String[] p = {r.nextBoolean() ? "金卡" : "normal", String.valueOf(r.nextInt(100))};
                users.put(u, p);
                redis.cli("HSET", prefix + u, "level", p[0], "score", p[1]);
                redis.cli("HSET", prefix + "risk", String.valueOf(u), p[1]);
            }
        }
        List<Integer> events = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            events.add(r.nextInt(35));
        }
        String id = "ev-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, events.stream().map(u -> "{\"uid\":\"" + prefix + u + "\",\"u\":\"" + u
                + "\",\"rk\":\"" + prefix + "risk\"}").toList());
        String out = "uid STRING, level STRING, score INT";
        Map<String, List<Row>> got = TestJob.run(
                "CREATE TABLE ev (uid STRING, u STRING, rk STRING, proc AS PROCTIME()) WITH (type = 'values', id = '" + id + "');\n"
                        + "CREATE TABLE profile (uid STRING, level STRING, score INT)" + with("hash", "") + ";\n"
                        + "CREATE TABLE profile_cached (uid STRING, level STRING, score INT)"
                        + with("hash", ", 'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '10'") + ";\n"
                        + "CREATE TABLE risk (k STRING, u STRING, score INT)" + with("hashmap", "") + ";\n"
                        + sink("direct_left", out) + sink("cached_inner", out) + sink("by_field", "u STRING, score INT")
                        + "INSERT INTO direct_left SELECT ev.uid, p.level, p.score FROM ev LEFT JOIN profile"
                        + " FOR SYSTEM_TIME AS OF ev.proc AS p ON ev.uid = p.uid;\n"
                        + "INSERT INTO cached_inner SELECT ev.uid, p.level, p.score FROM ev JOIN profile_cached"
                        + " FOR SYSTEM_TIME AS OF ev.proc AS p ON ev.uid = p.uid;\n"
                        + "INSERT INTO by_field SELECT ev.u, x.score FROM ev JOIN risk FOR SYSTEM_TIME AS OF ev.proc AS x"
                        + " ON x.k = ev.rk AND x.u = ev.u;\n",
                "direct_left", "cached_inner", "by_field");

        List<String> left = new ArrayList<>();
        List<String> inner = new ArrayList<>();
        List<String> byField = new ArrayList<>();
        for (int u : events) {
            String[] p = users.get(u);
            left.add(text(prefix + u, p == null ? null : p[0], p == null ? null : Integer.parseInt(p[1])));
            if (p != null) {
                inner.add(text(prefix + u, p[0], Integer.parseInt(p[1])));
                byField.add(text(String.valueOf(u), Integer.parseInt(p[1])));
            }
        }
        left.sort(null);
        inner.sort(null);
        byField.sort(null);
        assertTrue(inner.size() > 250 && left.size() - inner.size() > 50, "hits and misses: " + inner.size());
        assertEquals(left, Changelog.materialize(got.get("direct_left")));
        assertEquals(inner, Changelog.materialize(got.get("cached_inner")));
        assertEquals(byField, Changelog.materialize(got.get("by_field")));
    }

    /** What can be known before the first row fails at check, and a refused password is not shown. */
    @Test
    void mistakesAreReportedAtCheckAndWithoutThePassword() throws Exception {
        PlanningException e = assertThrows(PlanningException.class, () -> plan(
                GEN + "CREATE TABLE d (k STRING, a STRING, b STRING)" + with("string", "") + ";\n"
                        + "INSERT INTO d SELECT a, a, a FROM g;"));
        assertTrue(e.getMessage().contains("mode string has two columns (key, value), not 3"), e.getMessage());
        e = assertThrows(PlanningException.class, () -> plan(GEN + "CREATE TABLE d (k STRING, v STRING)"
                + with("list", "") + ";\nINSERT INTO d SELECT a, a FROM g;"));
        assertTrue(e.getMessage().contains("option 'mode' must be string, hashmap or hash"), e.getMessage());
        e = assertThrows(PlanningException.class, () -> plan(
                "CREATE TABLE ev (k STRING, proc AS PROCTIME()) WITH ('connector' = 'datagen');\n"
                        + "CREATE TABLE d (k STRING, v STRING)" + with("string", ", 'lookup.cache' = 'FULL'") + ";\n"
                        + "CREATE TABLE o (k STRING, v STRING) WITH (type = 'print');\n"
                        + "INSERT INTO o SELECT ev.k, d.v FROM ev JOIN d FOR SYSTEM_TIME AS OF ev.proc ON ev.k = d.k;"));
        assertTrue(e.getMessage().contains("use 'lookup.cache' = 'PARTIAL'"), e.getMessage());

        String wrong = "not-the-" + redis.password();
        AssertionError failure = assertThrows(AssertionError.class, () -> TestJob.run(GEN.replace("'datagen'",
                "'datagen', 'number-of-rows' = '3'") + "CREATE TABLE d (k STRING, v STRING)"
                + with("string", "").replace(redis.password(), wrong) + ";\nINSERT INTO d SELECT a, a FROM g;"));
        String all = messages(failure);
        assertTrue(all.contains("WRONGPASS") || all.contains("invalid password"), all);
        assertFalse(all.contains(wrong), all);
    }

    private static final String GEN = "CREATE TABLE g (a STRING) WITH ('connector' = 'datagen');\n";

    private static void plan(String script) {
        new ScriptPlanner(PlannerContext.defaults()).plan("t", script);
    }

    private static String messages(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c.getMessage()).append(" | ");
        }
        return sb.toString();
    }
}
