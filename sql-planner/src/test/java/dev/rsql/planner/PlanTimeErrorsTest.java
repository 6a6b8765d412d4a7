package dev.rsql.planner;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code bin/rsql check} rejects before the first record: connector options, INSERT types and column counts,
 * constant expressions that throw; each error starts with the line and column to blame.
 */
class PlanTimeErrorsTest {

    static final String SINK = "CREATE TABLE o (id BIGINT, city VARCHAR) WITH (type = 'collect');\n";

    static void planOk(String script) {
        assertDoesNotThrow(() -> new ScriptPlanner(PlannerContext.defaults()).plan("t", script));
    }

    static void assertError(String script, String position, String... fragments) {
        PlanningException e = assertThrows(PlanningException.class,
                () -> new ScriptPlanner(PlannerContext.defaults()).plan("t", script));
        assertTrue(e.getMessage().startsWith(position + ":"), e.getMessage());
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "'" + f + "' missing in: " + e.getMessage());
        }
    }

    @Test
    void aFileSourceWithoutPathFailsAtItsStatement() {
        assertError("CREATE TABLE s (id BIGINT, city VARCHAR)\n  WITH ('connector' = 'filesystem', 'format' = 'json');\n"
                + SINK + "INSERT INTO o SELECT id, city FROM s;", "line 1, column 1", "table s", "'path' is required");
    }

    @Test
    void malformedDatagenOptionsFailAtTheOption() {
        assertError("CREATE TABLE g (id BIGINT, city VARCHAR) WITH (\n  'connector' = 'datagen',\n"
                + "  'number-of-rows' = 'ten');\n" + SINK + "INSERT INTO o SELECT id, city FROM g;",
                "line 3, column 3", "table g", "'number-of-rows' must be an integer, got 'ten'");
        assertError("CREATE TABLE g (id BIGINT, city VARCHAR) WITH ('connector' = 'datagen',\n"
                + "  'fields.id.kind' = 'sequense');\n" + SINK + "INSERT INTO o SELECT id, city FROM g;",
                "line 2, column 3", "column id", "kind must be random or sequence, got 'sequense'");
        assertError("CREATE TABLE g (id BIGINT, city VARCHAR, ts TIMESTAMP(3)) WITH ('connector' = 'datagen',\n"
                + "  'fields.ts.max-past' = 'a while');\n" + SINK + "INSERT INTO o SELECT id, city FROM g;",
                "line 2, column 3", "'fields.ts.max-past' must be a duration");
    }

    @Test
    void unknownEnumValuesAndDurationsOfSinksFailAtTheOption() {
        String source = "CREATE TABLE g (id BIGINT, city VARCHAR) WITH ('connector' = 'datagen');\n";
        assertError(source + "CREATE TABLE p (id BIGINT, city VARCHAR) WITH ('connector' = 'print',\n"
                + "    'target' = 'screen');\nINSERT INTO p SELECT id, city FROM g;",
                "line 3, column 5", "'target' must be stdout, stderr or log, got 'screen'");
        assertError(source + "CREATE TABLE q (id BIGINT, city VARCHAR) WITH ('connector' = 'rocketmq',\n"
                + "    'topic' = 'x', 'nameserver' = '127.0.0.1:9876', 'sink.flush-timeout' = 'soon');\n"
                + "INSERT INTO q SELECT id, city FROM g;",
                "line 3, column 53", "table q", "'sink.flush-timeout' must be a duration");
        assertError("CREATE TABLE m (id BIGINT, city VARCHAR) WITH ('connector' = 'rocketmq', 'topic' = 'x',\n"
                + "  'nameserver' = '127.0.0.1:9876',\n  'scan.startup.mode' = 'newest');\n" + SINK
                + "INSERT INTO o SELECT id, city FROM m;", "line 3, column 3", "'scan.startup.mode' must be");
    }

    @Test
    void anUnknownErrorPolicyFailsAtTheOption() {
        assertError("CREATE TABLE g (id BIGINT, city VARCHAR) WITH ('connector' = 'datagen',\n"
                + "  'scan.error-policy' = 'sometimes');\n" + SINK + "INSERT INTO o SELECT id, city FROM g;",
                "line 2, column 3", "table g", "'scan.error-policy' must be 'fail' or 'skip', got 'sometimes'");
    }

    @Test
    void anUnknownFormatFailsAtTheFormatOption(@TempDir Path dir) throws Exception {
        Path in = Files.writeString(dir.resolve("in.xml"), "<a/>\n");
        assertError("CREATE TABLE s (id BIGINT, city VARCHAR) WITH ('connector' = 'filesystem',\n"
                + "  'path' = '" + in + "', 'format' = 'xml');\n" + SINK + "INSERT INTO o SELECT id, city FROM s;",
                "line 2, column " + (in.toString().length() + 16), "table s", "format 'xml' is not available");
    }

    static final String SOURCE = "CREATE TABLE s (id BIGINT, city VARCHAR, n INT, amount DECIMAL(5, 2), ts TIMESTAMP(3))"
            + " WITH (type = 'values', id = 's');\n";

    @Test
    void aStringIntoABigintNeedsAnExplicitCast() {
        assertError(SOURCE + SINK + "INSERT INTO o\nSELECT city, city FROM s;", "line 4, column 8",
                "INSERT INTO o", "column id", "is BIGINT", "gives it STRING", "CAST(... AS BIGINT)");
        // SELECT * into a sink whose columns are in another order
        assertError("CREATE TABLE s2 (city VARCHAR, id BIGINT) WITH (type = 'values', id = 's2');\n" + SINK
                + "INSERT INTO o SELECT * FROM s2;", "line 3, column 22", "column id", "gives it STRING");
        assertError(SOURCE + SINK + "INSERT INTO o (city, id) SELECT city, amount FROM s;", "line 3, column 39",
                "column id", "DECIMAL(5, 2)");
        assertError(SOURCE + SINK + "INSERT INTO o SELECT city, city FROM s UNION ALL SELECT city, city FROM s;",
                "line 3, column 22", "column id", "gives it STRING");
        planOk(SOURCE + SINK + "INSERT INTO o SELECT CAST(city AS BIGINT), city FROM s;");
    }

    @Test
    void wideningAndNullsNeedNoCast() {
        planOk(SOURCE + "CREATE TABLE w (a BIGINT, b STRING, c TIMESTAMP(6), d DECIMAL(10, 3), e DOUBLE, f DATE,"
                + " g VARCHAR, h BIGINT, i DECIMAL(20, 0)) WITH (type = 'collect');\n"
                + "INSERT INTO w SELECT n, city, ts, amount, n, ts, 'lit', NULL, id FROM s;\n"
                + "INSERT INTO w SELECT 1, CAST(NULL AS VARCHAR), ts, 1.5, amount, CAST(ts AS DATE), city, n, n FROM s;");
    }

    @Test
    void anInsertWithTheWrongNumberOfColumnsFails() {
        assertError(SOURCE + SINK + "INSERT INTO o\n  SELECT id FROM s;", "line 4, column 3",
                "the query gives 1 column but table o has 2 [id, city]");
        planOk(SOURCE + SINK + "INSERT INTO o (city, id) SELECT city, id FROM s;");
        assertError(SOURCE + SINK + "INSERT INTO o SELECT id, city, n FROM s;", "line 3, column 15", "3", "2");
        assertError(SOURCE + SINK + "INSERT INTO o (id) SELECT id, city FROM s;", "line 3, column 20", "1", "2");
        assertError(SOURCE + SINK + "INSERT INTO o (id, city) SELECT id FROM s;", "line 3, column 26",
                "the query gives 1 column but the INSERT names 2 [id, city]");
    }

    @Test
    void aConstantExpressionThatThrowsFailsAtItsPosition() {
        assertError(SOURCE + SINK + "INSERT INTO o SELECT id, city FROM s\nWHERE n > 1 / 0;", "line 4, column 11",
                "1 / 0", "by zero");
        assertError(SOURCE + SINK + "INSERT INTO o SELECT CAST('ten' AS BIGINT), city FROM s;", "line 3, column 22",
                "'ten'");
        planOk(SOURCE + SINK + "INSERT INTO o SELECT id / 2 + 10 * 3, CAST(1 + 1 AS VARCHAR) FROM s WHERE n > 4 / 2;");
    }

    @Test
    void settingsAScriptGivesAreCheckedWhereTheyAreSet() {
        String job = "CREATE TABLE g (id BIGINT, city VARCHAR) WITH ('connector' = 'datagen');\n" + SINK
                + "INSERT INTO o SELECT id, city FROM g;\n";
        assertError("CREATE TABLE x (id BIGINT) WITH ('connector' = 'datagen');\nSET 'worker.threads' = 'abc';\n" + job,
                "line 2, column 1", "SET 'worker.threads'", "must be an integer, got 'abc'");
        assertError("SET 'execution.mode' = 'distributd';\n" + job, "line 1, column 1",
                "execution.mode must be 'local' or 'distributed', got 'distributd'");
        assertError("SET 'state.backend.type' = 'heap';\n" + job, "line 1, column 1",
                "state.backend.type must be 'rocksdb' or 'hashmap', got 'heap'");
        assertError("SET 'checkpoint.interval' = 'often';\n" + job, "line 1, column 1", "checkpoint.interval");
        assertError("SET 'http.port' = '8081';\n" + job, "line 1, column 1",
                "not a setting of a job: set it in conf/rsql.conf");
        planOk("SET 'worker.threads' = '2';\nSET 'execution.mode' = 'local';\nSET 'checkpoint.interval' = '10s';\n" + job);
    }
}
