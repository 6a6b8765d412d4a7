package dev.rsql.planner;

import org.junit.jupiter.api.Test;

import static dev.rsql.planner.PlanTimeErrorsTest.assertError;

/** Subquery forms the planner cannot run, and errors inside views, reported at their line and column. */
class SubQueryErrorsTest {

    private static final String TABLES = "CREATE TABLE a (k INT, x BIGINT) WITH (type = 'values', id = 'a');\n"
            + "CREATE TABLE b (k INT, y BIGINT) WITH (type = 'values', id = 'b');\n"
            + "CREATE TABLE o (k INT, x BIGINT) WITH (type = 'collect', id = 'o');\n";

    @Test
    void unsupportedSubqueriesFailAtTheSubquery() {
        assertError(TABLES + "INSERT INTO o SELECT k, x FROM a\n  WHERE x > 3 OR k IN (SELECT k FROM b);",
                "line 5, column 24", "IN subqueries are supported only as conjuncts of a WHERE clause");
        assertError(TABLES + "INSERT INTO o SELECT k, (SELECT y FROM b) FROM a;",
                "line 4, column 25", "a scalar subquery must return at most one row");
        assertError(TABLES + "INSERT INTO o SELECT k, x FROM a\n  WHERE EXISTS (SELECT k FROM (SELECT k FROM b "
                + "WHERE b.y > a.x) GROUP BY k);", "line 5, column 16", "a correlated subquery may refer to the outer");
    }

    @Test
    void errorsInsideAViewFailAtTheirPositionInTheView() {
        String view = "CREATE VIEW v AS\n  SELECT k, x FROM a\n  WHERE x > 3 OR EXISTS (SELECT * FROM b WHERE b.k = a.k);\n";
        assertError(TABLES + view + "INSERT INTO o SELECT * FROM v;", "line 6, column 25", "EXISTS subqueries");
        assertError(TABLES + "CREATE VIEW w AS\n  SELECT k, x FROM a\n  WHERE y > 3;\nINSERT INTO o SELECT * FROM w;",
                "line 6, column 9", "y");
    }

    /** Errors of the physical plan (a form no operator runs, a changelog into an append-only sink) too. */
    @Test
    void physicalPlanErrorsInsideAViewFailAtTheView() {
        assertError(TABLES + "CREATE VIEW j AS\n  SELECT a.k, a.x FROM a JOIN b ON a.x < b.y;\n"
                + "INSERT INTO o SELECT * FROM j;", "line 5, column 3", "a join that is not INNER");
        String csv = "CREATE TABLE f (k INT, x BIGINT) WITH (connector = 'filesystem', path = '/tmp/never.csv', "
                + "format = 'csv');\n";
        String counts = "CREATE VIEW counts AS\n  SELECT k, COUNT(*) AS x FROM a GROUP BY k;\n";
        assertError(TABLES + csv + counts + "CREATE VIEW big AS SELECT * FROM counts WHERE x > 3;\n"
                + "INSERT INTO f SELECT * FROM big;", "line 6, column 3", "Table sink 'f' doesn't support consuming "
                + "update and delete changes which is produced by node GroupAggregate(groupBy=[k]");
        // a join of two views is the INSERT's own
        assertError(TABLES + counts + "INSERT INTO o SELECT counts.k, counts.x FROM counts JOIN a ON counts.x < a.x;",
                "line 6, column 1", "a join that is not INNER");
    }
}
