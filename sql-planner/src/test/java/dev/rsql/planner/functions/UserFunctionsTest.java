package dev.rsql.planner.functions;

import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.PlanningException;
import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.spi.ExtClassLoader;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.rsql.planner.testing.TestJob.rows;
import static dev.rsql.planner.testing.TestJob.sink;
import static dev.rsql.planner.testing.TestJob.source;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * User functions in jars built during the test and dropped into a temporary ext/ (one class loader per jar), used by
 * SQL jobs: Flink-API scalar and table functions, bean {@code eval}, a plain method, two jars bundling different
 * versions of one library, and a function that throws under the FAIL and SKIP policies.
 */
class UserFunctionsTest {

    @TempDir
    static Path ext;
    private static ClassLoader loader;

    @BeforeAll
    static void buildJars() throws Exception {
        List<Path> jars = new ArrayList<>();
        for (String name : List.of("flink-scalar", "flink-table", "flink-agg", "bean", "method", "helper-v1",
                "helper-v2")) {
            jars.add(UdfJars.build(name, ext));
        }
        loader = new ExtClassLoader(jars, UserFunctionsTest.class.getClassLoader());
    }

    private static PlannerContext context() {
        return new PlannerContext(Options.empty(), loader, name -> null);
    }

    private static Map<String, List<Row>> run(String script, String... sinks) throws Exception {
        return TestJob.run(context(), script, sinks);
    }

    private static final String FUNCTIONS = ""
            + "CREATE FUNCTION strLen AS 'com.example.udf.StringLengthUdf';\n"
            + "CREATE FUNCTION shift AS 'com.example.udf.Shift';\n"
            + "CREATE FUNCTION typed AS 'com.example.udf.Typed';\n"
            + "CREATE FUNCTION fragile AS 'com.example.udf.Fragile';\n"
            + "CREATE FUNCTION parseUdtf AS 'com.example.udtf.ParseUdtf';\n"
            + "CREATE FUNCTION rowUdtf AS 'com.example.udtf.RowUdtf';\n"
            + "CREATE FUNCTION words AS 'com.example.udtf.Words';\n"
            + "CREATE FUNCTION greet AS 'com.example.bean.Greeter';\n"
            + "CREATE FUNCTION kv AS 'com.example.bean.KvRows';\n"
            + "CREATE FUNCTION shout AS 'com.example.util.TextUtils';\n"
            + "CREATE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS va AS 'com.example.a.VersionA' LANGUAGE JAVA;\n"
            + "CREATE FUNCTION vb AS 'com.example.b.VersionB';\n";

    private static final String COLUMNS = "id INT, name VARCHAR, n INT, big BIGINT, amount DECIMAL(10, 2), "
            + "ts TIMESTAMP, content VARCHAR";

    private static void register(String id) {
        ValuesSourceFactory.register(id, List.of(
                "{\"id\":1,\"name\":\"ann\",\"n\":4,\"big\":5,\"amount\":1.5,\"ts\":\"2024-01-01 10:00:00\","
                        + "\"content\":\"x,1,2;y,3,4\"}",
                "{\"id\":2,\"name\":\"\",\"n\":null,\"big\":null,\"amount\":null,\"ts\":null,\"content\":null}"));
    }

    @Test
    void flinkScalarFunctionsWithOverloadsJobParametersAndGetResultType() throws Exception {
        register("sc");
        Map<String, List<Row>> out = run("SET 'udf.bonus' = '100';\n" + FUNCTIONS + source("sc", COLUMNS)
                + sink("o", "id INT, l1 BIGINT, l2 BIGINT, i INT, b BIGINT, d DECIMAL(10, 2), t TIMESTAMP, "
                        + "v VARCHAR, t1 BIGINT, t2 VARCHAR")
                + "INSERT INTO o SELECT id, strLen(name), STRLEN(name, 'xy'), shift(n), shift(big), shift(amount), "
                + "shift(ts, 2), shift(name, 'p', 'q'), typed(n, 'num'), typed(n, 'text') FROM sc", "o");
        List<Row> rows = out.get("o");
        rows.sort((a, b) -> Integer.compare((Integer) a.get(0), (Integer) b.get(0)));
        Row r1 = rows.get(0);
        assertEquals(103L, r1.get(1));
        assertEquals(205L, r1.get(2));
        assertEquals(5, r1.get(3));
        assertEquals(1005L, r1.get(4));
        assertEquals(0, new java.math.BigDecimal("2.5").compareTo((java.math.BigDecimal) r1.get(5)));
        assertEquals(java.time.LocalDateTime.of(2024, 1, 1, 12, 0).toInstant(java.time.ZoneOffset.UTC).toEpochMilli(),
                r1.get(6));
        assertEquals("ann+p+q", r1.get(7));
        assertEquals(8L, r1.get(8));
        assertEquals("n=4", r1.get(9));
        // NULLs: primitive parameters give NULL without a call; boxed ones reach the function.
        assertEquals("[2, 100, 202, null, null, null, null, +p+q, null, n=null]", java.util.Arrays.deepToString(
                rows.get(1).fields()));
    }

    @Test
    void tableFunctionsInCommaAndLeftJoins() throws Exception {
        register("tf");
        Map<String, List<Row>> out = run("SET 'udtf.separator' = ';';\n" + FUNCTIONS + source("tf", COLUMNS)
                + sink("tuples", "id INT, a VARCHAR, b BIGINT, c INT")
                + sink("rowsOut", "id INT, s VARCHAR, k BIGINT, t TIMESTAMP")
                + sink("words", "id INT, w VARCHAR, l INT")
                + "INSERT INTO tuples SELECT id, a, b, c FROM tf, LATERAL TABLE(parseUdtf(content)) AS T(a, b, c);\n"
                + "INSERT INTO rowsOut SELECT S.id, T.s, T.k, T.t FROM tf AS S, "
                + "LATERAL TABLE(rowUdtf(COALESCE(S.content, ''), 10)) AS T(s, k, t) WHERE T.k >= 10;\n"
                + "INSERT INTO words SELECT id, w, l FROM tf LEFT JOIN LATERAL TABLE(words(name)) AS T(w, l) ON TRUE",
                "tuples", "rowsOut", "words");
        assertEquals(List.of("[1, x, 1, 2]", "[1, y, 3, 4]"), rows(out.get("tuples")));
        assertEquals(List.of("[1, x,1,2, 10, 1704103200000]", "[1, y,3,4, 11, 1704189600000]", "[2, , 10, null]"),
                rows(out.get("rowsOut")));
        assertEquals(List.of("[1, ann, 3]", "[2, null, null]"), rows(out.get("words")));
    }

    @Test
    void beanAndMethodStyles() throws Exception {
        register("bs");
        int closedBefore = (Integer) loader.loadClass("com.example.bean.Greeter").getField("closed").get(null);
        Map<String, List<Row>> out = run(FUNCTIONS + source("bs", COLUMNS)
                + sink("o", "id INT, g1 VARCHAR, g2 VARCHAR, s VARCHAR")
                + sink("kvOut", "id INT, k VARCHAR, v INT")
                + "INSERT INTO o SELECT id, greet(name), greet(name, 2), shout(name) FROM bs;\n"
                + "INSERT INTO kvOut SELECT id, T.k, CAST(T.v AS INT) FROM bs, LATERAL TABLE(kv('a=1&b')) AS T(v, k) "
                + "WHERE id = 1", "o", "kvOut");
        assertEquals(List.of("[1, hello ann, hello ann hello ann, ANN!]", "[2, hello , hello  hello, !]"),
                rows(out.get("o")));
        assertEquals(List.of("[1, a, 1]", "[1, b, null]"), rows(out.get("kvOut")));
        int closedAfter = (Integer) loader.loadClass("com.example.bean.Greeter").getField("closed").get(null);
        assertTrue(closedAfter > closedBefore, "bean close() was called");
    }

    @Test
    void jobParametersComeFromConfWhenTheScriptDoesNotSetThem() throws Exception {
        register("cf");
        TestJob job = new TestJob(context(), "t", FUNCTIONS + source("cf", COLUMNS) + sink("o", "l BIGINT")
                + "INSERT INTO o SELECT strLen(name) FROM cf WHERE id = 1", Map.of("udf.bonus", "7"));
        job.awaitCompletion();
        assertEquals(List.of("[10]"), rows(job.take("o").get("o")));
    }

    @Test
    void callsAreCompiledToDirectInvocationsOnAFieldOfTheGeneratedClass() {
        String source = new dev.rsql.planner.ScriptPlanner(context()).plan("t", (FUNCTIONS + source("gc", COLUMNS)
                + sink("o", "l BIGINT, g VARCHAR, s VARCHAR") + "INSERT INTO o SELECT strLen(name), greet(name), "
                + "shout(name) FROM gc").replace("${RUN}", "x")).generatedSource();
        assertTrue(source.contains("private final com.example.udf.StringLengthUdf udf$strlen = "
                + "new com.example.udf.StringLengthUdf()"), source);
        assertTrue(source.contains("udf$strlen.eval("), source);
        assertTrue(source.contains("udf$greet.eval("), source);
        assertTrue(source.contains("com.example.util.TextUtils.shout("), source);
        assertTrue(source.contains("UdfLifecycle.open(udf$strlen, context, \"strLen\")"), source);
        assertTrue(!source.contains("reflect"), source);
    }

    @Test
    void twoJarsWithDifferentVersionsOfOneLibraryWorkInOneJob() throws Exception {
        register("vv");
        Map<String, List<Row>> out = run(FUNCTIONS + source("vv", COLUMNS) + sink("o", "a VARCHAR, b VARCHAR")
                + "INSERT INTO o SELECT va(name), vb(name) FROM vv WHERE id = 1", "o");
        assertEquals(List.of("[ann:Av1, ann:Bv2]"), rows(out.get("o")));
    }

    @Test
    void aFailingFunctionFailsTheJobNamingTheFunctionItsArgumentsAndTheRecord() throws Exception {
        ValuesSourceFactory.register("ff", List.of("{\"id\":1,\"n\":1}", "{\"id\":2,\"n\":3}", "{\"id\":3,\"n\":5}"));
        JobInstance job = new TestJob(context(), "t", FUNCTIONS + source("ff", "id INT, n INT")
                + sink("o", "id INT, v INT") + "INSERT INTO o SELECT id, fragile(n) FROM ff", Map.of()).job();
        assertTrue(job.awaitTermination(Duration.ofSeconds(60)));
        Throwable failure = job.failure();
        assertNotNull(failure, "the job fails");
        String m = failure.getMessage();
        assertTrue(m.contains("fragile(3) failed") && m.contains("cannot handle 3"), m);
        assertTrue(m.contains("record at values ff-0, record 1"), m);
    }

    @Test
    void withSkipTheFailingRecordIsSkippedAndNothingElseIsLost() throws Exception {
        List<String> rows = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            rows.add("{\"id\":" + i + ",\"n\":" + (i == 4 ? 3 : i + 10) + "}");
        }
        ValuesSourceFactory.register("fs", rows);
        Map<String, List<Row>> out = run(FUNCTIONS
                + "CREATE TABLE fs (id INT, n INT) WITH (type = 'values', id = 'fs', 'scan.error-policy' = 'skip', "
                + "'scan.dead-letter-table' = 'dl');\n"
                + sink("dl", "table_name VARCHAR, `position` VARCHAR, error VARCHAR, payload VARCHAR")
                + sink("o", "id INT, v INT") + sink("everything", "id INT")
                + "INSERT INTO o SELECT id, fragile(n) FROM fs;\n"
                + "INSERT INTO everything SELECT id FROM fs", "o", "dl", "everything");
        assertEquals(List.of("[1, 110]", "[2, 120]", "[3, 130]", "[5, 150]", "[6, 160]"), rows(out.get("o")));
        assertEquals(6, out.get("everything").size());
        assertEquals(1, out.get("dl").size());
        Row dead = out.get("dl").get(0);
        assertEquals("fs", dead.get(0));
        assertTrue(String.valueOf(dead.get(2)).contains("fragile(3) failed"), String.valueOf(dead.get(2)));
        assertEquals("[4, 3]", dead.get(3));
    }

    /**
     * Flink-API aggregate functions from a jar: in a window (opened with job parameters), and in a GROUP BY over the
     * changelog of another GROUP BY, which takes rows back through their retract methods.
     */
    @Test
    void aggregateFunctionsInWindowsAndOverUpdates() throws Exception {
        ValuesSourceFactory.register("agg", List.of(
                "{\"k\":\"a\",\"v\":10,\"w\":1,\"ts\":\"2024-01-01 10:00:01\"}",
                "{\"k\":\"a\",\"v\":20,\"w\":3,\"ts\":\"2024-01-01 10:00:02\"}",
                "{\"k\":\"b\",\"v\":5,\"w\":2,\"ts\":\"2024-01-01 10:00:03\"}",
                "{\"k\":\"a\",\"v\":40,\"w\":1,\"ts\":\"2024-01-01 10:01:30\"}"));
        Map<String, List<Row>> out = run("SET 'avg.scale' = '10';\n"
                + "CREATE FUNCTION wavg AS 'com.example.udaf.WeightedAvg';\n"
                + "CREATE FUNCTION ucount AS 'com.example.udaf.CountUdaf';\n"
                + "CREATE TABLE agg (k VARCHAR, v BIGINT, w INT, ts TIMESTAMP, WATERMARK FOR ts AS withOffset(ts, 0))"
                + " WITH (type = 'values', id = 'agg');\n"
                + sink("windows", "k VARCHAR, ws TIMESTAMP, a DOUBLE, c BIGINT")
                + sink("latest", "c BIGINT, n BIGINT, PRIMARY KEY (c) NOT ENFORCED")
                + "INSERT INTO windows SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE), wavg(v, w), ucount(v) FROM agg"
                + " GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);\n"
                + "INSERT INTO latest SELECT c, ucount(k) FROM (SELECT k, ucount(v) AS c FROM agg GROUP BY k)"
                + " GROUP BY c", "windows", "latest");
        long minute = java.sql.Timestamp.valueOf("2024-01-01 10:00:00").toLocalDateTime()
                .toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
        // (10*1 + 20*3) / 4 = 17.5, scaled by the job parameter.
        assertEquals(List.of("[a, " + minute + ", 175.0, 2]", "[a, " + (minute + 60_000) + ", 400.0, 1]",
                "[b, " + minute + ", 50.0, 1]"), rows(out.get("windows")));
        // Finally a has 3 rows and b has 1: a's earlier counts 1 and 2 were taken back.
        Map<Object, Long> table = new java.util.TreeMap<>();
        for (Row r : out.get("latest")) {
            if (r.kind() == dev.rsql.runtime.data.RowKind.DELETE) {
                table.remove(r.get(0));
            } else {
                table.put(r.get(0), (Long) r.get(1));
            }
        }
        assertEquals(Map.of(1L, 1L, 3L, 1L), table);
    }

    /**
     * Flink-API aggregate functions over an OVER window of the row and the one before it: the row leaving the window
     * is taken back through their retract methods.
     */
    @Test
    void aggregateFunctionsOverRowsWindows() throws Exception {
        ValuesSourceFactory.register("over-agg", List.of(
                "{\"k\":\"a\",\"v\":10,\"w\":1,\"ts\":\"2024-01-01 10:00:01\"}",
                "{\"k\":\"a\",\"v\":20,\"w\":3,\"ts\":\"2024-01-01 10:00:02\"}",
                "{\"k\":\"b\",\"v\":5,\"w\":2,\"ts\":\"2024-01-01 10:00:03\"}",
                "{\"k\":\"a\",\"v\":40,\"w\":1,\"ts\":\"2024-01-01 10:01:30\"}"));
        List<Row> out = run("CREATE FUNCTION wavg AS 'com.example.udaf.WeightedAvg';\n"
                + "CREATE FUNCTION ucount AS 'com.example.udaf.CountUdaf';\n"
                + "CREATE TABLE agg (k VARCHAR, v BIGINT, w INT, ts TIMESTAMP, WATERMARK FOR ts AS withOffset(ts, 0))"
                + " WITH (type = 'values', id = 'over-agg');\n"
                + sink("o", "k VARCHAR, v BIGINT, a DOUBLE, c BIGINT")
                + "INSERT INTO o SELECT k, v, wavg(v, w) OVER w, ucount(v) OVER w FROM agg"
                + " WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)", "o").get("o");
        // a: 10; (10*1 + 20*3) / 4 = 17.5; (20*3 + 40*1) / 4 = 25 once 10 has left the window.
        assertEquals(List.of("[a, 10, 10.0, 1]", "[a, 20, 17.5, 2]", "[a, 40, 25.0, 2]", "[b, 5, 5.0, 1]"),
                rows(out));
    }

    /**
     * After an exchange a row no longer knows its source record; a function failing there follows the upstream
     * tables' policy: with SKIP the window's result row is dead-lettered and the others arrive; with FAIL the job
     * fails naming the function and the row.
     */
    @Test
    void aFunctionFailingAfterAnExchangeFollowsTheUpstreamPolicy() throws Exception {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            // Key a: 3 rows in minute 0, 1 in minute 1; key b: 2 in minute 0.
            String k = i < 4 && i != 1 ? "a" : "b";
            rows.add("{\"k\":\"" + k + "\",\"ts\":\"2024-01-01 10:0" + (i == 5 ? "1" : "0") + ":0" + i + "\"}");
        }
        rows.set(5, "{\"k\":\"a\",\"ts\":\"2024-01-01 10:01:05\"}");
        String query = "INSERT INTO o SELECT k, fragile(CAST(COUNT(*) AS INT)) FROM fx"
                + " GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)";
        String table = "CREATE TABLE fx (k VARCHAR, ts TIMESTAMP, WATERMARK FOR ts AS withOffset(ts, 0))"
                + " WITH (type = 'values', id = 'fx'%s);\n";
        ValuesSourceFactory.register("fx", rows);
        Map<String, List<Row>> out = run(FUNCTIONS
                + String.format(table, ", 'scan.error-policy' = 'skip', 'scan.dead-letter-table' = 'dl'")
                + sink("dl", "table_name VARCHAR, `position` VARCHAR, error VARCHAR, payload VARCHAR")
                + sink("o", "k VARCHAR, c INT") + query, "o", "dl");
        assertEquals(List.of("[a, 10]", "[b, 20]"), rows(out.get("o")));
        assertEquals(1, out.get("dl").size());
        assertTrue(String.valueOf(out.get("dl").get(0).get(2)).contains("fragile(3) failed"),
                String.valueOf(out.get("dl").get(0)));

        JobInstance job = new TestJob(context(), "t", FUNCTIONS + String.format(table, "")
                + sink("o", "k VARCHAR, c INT") + query, Map.of()).job();
        assertTrue(job.awaitTermination(Duration.ofSeconds(60)));
        assertNotNull(job.failure(), "the job fails");
        String m = job.failure().getMessage();
        assertTrue(m.contains("fragile(3) failed") && m.contains("partition") && m.contains("row +I[a, "), m);
    }

    @Test
    void unusableClassesAreReportedAtTheirCreateFunction() {
        PlanningException e = assertThrows(PlanningException.class, () -> TestJob.run(context(),
                "CREATE FUNCTION f AS 'com.example.Missing';\n" + source("x", "a INT") + sink("o", "a INT")
                        + "INSERT INTO o SELECT a FROM x"));
        assertTrue(e.getMessage().contains("line 1") && e.getMessage().contains("class 'com.example.Missing' not found"),
                e.getMessage());
        e = assertThrows(PlanningException.class, () -> TestJob.run(context(),
                "CREATE FUNCTION f AS 'com.example.util.TextUtils';\n" + source("x", "a INT") + sink("o", "a INT")
                        + "INSERT INTO o SELECT a FROM x"));
        assertTrue(e.getMessage().contains("no public method named eval or f"), e.getMessage());
        e = assertThrows(PlanningException.class, () -> TestJob.run(context(),
                "CREATE FUNCTION f AS 'com.example.udf.Fragile' LANGUAGE PYTHON;\n" + source("x", "a INT")
                        + sink("o", "a INT") + "INSERT INTO o SELECT a FROM x"));
        assertTrue(e.getMessage().contains("only LANGUAGE JAVA"), e.getMessage());
        e = assertThrows(PlanningException.class, () -> TestJob.run(context(),
                FUNCTIONS + source("x", "a INT") + sink("o", "a VARCHAR") + "INSERT INTO o SELECT shout(a, a) FROM x"));
        assertTrue(e.getMessage().contains("shout(VARCHAR)"), e.getMessage());
    }
}
