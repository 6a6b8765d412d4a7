package dev.rsql.planner.functions;

import dev.rsql.planner.PlanningException;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.rsql.planner.testing.TestJob.rows;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static dev.rsql.planner.testing.TestJob.source;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LATERAL TABLE with the built-in table functions: comma and LEFT joins, NULLs, filters, views, chains. */
class LateralTableTest {

    private static final String T1 = "id INT, d VARCHAR, s INT, e INT, j VARCHAR, kv VARCHAR";

    private static void register(String id) {
        ValuesSourceFactory.register(id, List.of(
                "{\"id\":1,\"d\":\"a-b--c\",\"s\":1,\"e\":4,\"j\":\"{\\\"qwe\\\":\\\"x\\\",\\\"n\\\":{\\\"m\\\":[1,2]}}\","
                        + "\"kv\":\"k1=v1;k2=v2\"}",
                "{\"id\":2,\"d\":\"plain\",\"s\":5,\"e\":5,\"j\":\"not json\",\"kv\":\"k1 v1\"}",
                "{\"id\":3,\"d\":null,\"s\":null,\"e\":2,\"j\":null,\"kv\":null}"));
    }

    @Test
    void stringSplitCommaJoinDropsRowsWithoutOutputAndLeftJoinPadsThem() throws Exception {
        register("ls");
        Map<String, List<Row>> out = run(source("ls", T1) + sink("crossed", "id INT, v VARCHAR")
                + sink("lft", "id INT, v VARCHAR")
                + "INSERT INTO crossed SELECT id, v FROM ls, LATERAL TABLE(STRING_SPLIT(d, '-')) AS T(v);\n"
                + "INSERT INTO lft SELECT id, v FROM ls LEFT JOIN LATERAL TABLE(STRING_SPLIT(d, '-')) AS T(v) ON TRUE",
                "crossed", "lft");
        assertEquals(List.of("[1, ]", "[1, a]", "[1, b]", "[1, c]", "[2, plain]"), rows(out.get("crossed")));
        assertEquals(List.of("[1, ]", "[1, a]", "[1, b]", "[1, c]", "[2, plain]", "[3, null]"), rows(out.get("lft")));
    }

    @Test
    void generateSeriesExcludesTheUpperBound() throws Exception {
        register("gs");
        Map<String, List<Row>> out = run(source("gs", T1) + sink("o", "id INT, v INT") + sink("c", "id INT, v BIGINT")
                + "INSERT INTO o SELECT id, v FROM gs, LATERAL TABLE(GENERATE_SERIES(s, e)) AS T(v);\n"
                + "INSERT INTO c SELECT id, v FROM gs, LATERAL TABLE(GENERATE_SERIES(CAST(7 AS BIGINT), 9)) AS T(v) "
                + "WHERE id = 1", "o", "c");
        assertEquals(List.of("[1, 1]", "[1, 2]", "[1, 3]"), rows(out.get("o")));
        assertEquals(List.of("[1, 7]", "[1, 8]"), rows(out.get("c")));
    }

    @Test
    void jsonTupleGivesOneRowPerPath() throws Exception {
        register("jt");
        Map<String, List<Row>> out = run(source("jt", T1) + sink("o", "id INT, v VARCHAR")
                + "INSERT INTO o SELECT id, v FROM jt, LATERAL TABLE(JSON_TUPLE(j, 'qwe', 'n.m', 'n.m[1]')) AS T(v)",
                "o");
        assertEquals(List.of("[1, 2]", "[1, [1,2]]", "[1, x]", "[2, null]", "[2, null]", "[2, null]",
                "[3, null]", "[3, null]", "[3, null]"), rows(out.get("o")));
    }

    @Test
    void multiKeyValueGivesOneRowWithAColumnPerKey() throws Exception {
        register("mk");
        Map<String, List<Row>> out = run(source("mk", T1) + sink("o", "id INT, a VARCHAR, b VARCHAR")
                + sink("sp", "id INT, a VARCHAR")
                + "INSERT INTO o SELECT id, c1, c2 FROM mk, LATERAL TABLE(MULTI_KEYVALUE(kv, ';', '=', 'k1', 'k2')) "
                + "AS T(c1, c2);\n"
                + "INSERT INTO sp SELECT id, c1 FROM mk, LATERAL TABLE(MULTI_KEYVALUE(kv, NULL, NULL, 'k1')) AS T(c1)",
                "o", "sp");
        assertEquals(List.of("[1, v1, v2]", "[2, null, null]", "[3, null, null]"), rows(out.get("o")));
        assertEquals(List.of("[1, null]", "[2, null]", "[3, null]"), rows(out.get("sp")));
    }

    @Test
    void filtersExpressionsViewsAndTwoLateralTables() throws Exception {
        register("fv");
        Map<String, List<Row>> out = run(source("fv", T1) + sink("o", "id INT, v VARCHAR, n INT, x VARCHAR")
                + "CREATE VIEW pieces AS SELECT id, v FROM fv, LATERAL TABLE(STRING_SPLIT(UPPER(d), '-')) AS T(v) "
                + "WHERE v <> '';\n"
                + "INSERT INTO o SELECT p.id, p.v, g.n, CONCAT(p.v, CAST(g.n AS VARCHAR)) FROM pieces AS p, "
                + "LATERAL TABLE(GENERATE_SERIES(0, CHAR_LENGTH(p.v) + 1)) AS g(n) WHERE p.id = 1 AND g.n > 0",
                "o");
        assertEquals(List.of("[1, A, 1, A1]", "[1, B, 1, B1]", "[1, C, 1, C1]"), rows(out.get("o")));
    }

    @Test
    void onlyLeftJoinOnTrueIsAccepted() {
        register("oj");
        PlanningException e = assertThrows(PlanningException.class, () -> run(source("oj", T1)
                + sink("o", "id INT, v VARCHAR")
                + "INSERT INTO o SELECT id, v FROM oj LEFT JOIN LATERAL TABLE(STRING_SPLIT(d, '-')) AS T(v) "
                + "ON v = 'a'", "o"));
        assertTrue(e.getMessage().contains("ON TRUE"), e.getMessage());
    }
}
