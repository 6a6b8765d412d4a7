package dev.rsql.planner;

import dev.rsql.planner.TimedRows.Timed;
import dev.rsql.runtime.data.Row;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.rsql.planner.TimedRows.all;
import static dev.rsql.planner.TimedRows.generate;
import static dev.rsql.planner.TimedRows.table;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Comma joins whose WHERE holds the join condition ({@code FROM a, b WHERE a.k = b.k AND ...}), as in Nexmark q4 and
 * q9, over random out-of-order inputs, compared with a nested loop here.
 */
class CommaJoinSqlTest {

    private static final String COLUMNS = "ak INT, aid BIGINT, bk INT, bid BIGINT";

    /** b's time bounded by a's time and a column computed from it (not a time attribute: a regular join). */
    private static final String BOUNDED_BY_COLUMN = "b.ts BETWEEN a.ts AND a.expires";

    /** b's time within a second of a's: an interval join, as if written in an ON clause. */
    private static final String INTERVAL = "b.ts BETWEEN a.ts - INTERVAL '1' SECOND AND a.ts + INTERVAL '1' SECOND";

    private static String query(String sinkName, String where) {
        return "INSERT INTO " + sinkName + " SELECT a.k, a.id, b.k, b.id FROM a, b WHERE a.k = b.k AND " + where
                + ";\n";
    }

    private static String tables(List<List<Timed>> a, List<List<Timed>> b) {
        return table("a", a, ", expires AS ts + INTERVAL '3' SECOND") + table("b", b, "");
    }

    @Test
    void whereOfACommaJoinIsItsCondition() throws Exception {
        Random r = new Random(81);
        List<List<Timed>> a = generate(r, 3, 120, 6, 200);
        List<List<Timed>> b = generate(r, 3, 120, 6, 200);
        String script = tables(a, b) + sink("regular", COLUMNS) + query("regular", BOUNDED_BY_COLUMN)
                + sink("bounded", COLUMNS) + query("bounded", INTERVAL)
                + sink("residual", COLUMNS) + query("residual", "a.id < b.id + 100 AND b.id <> 7");
        Map<String, List<Row>> out = run(script, "regular", "bounded", "residual");
        List<String> regular = TimedRows.join(all(a), all(b), (x, y) -> y.ts() >= x.ts() && y.ts() <= x.ts() + 3000,
                false, false);
        assertTrue(regular.size() > 100, "matches: " + regular.size());
        assertEquals(regular, Changelog.materialize(out.get("regular")));
        assertEquals(TimedRows.join(all(a), all(b), (x, y) -> Math.abs(y.ts() - x.ts()) <= 1000, false, false),
                Changelog.materialize(out.get("bounded")));
        assertEquals(TimedRows.join(all(a), all(b), (x, y) -> x.id() < y.id() + 100 && y.id() != 7, false, false),
                Changelog.materialize(out.get("residual")));
    }

    @Test
    void explainShowsARegularJoinWithResidualOrAnIntervalJoin() {
        String ddl = (tables(List.of(List.of()), List.of(List.of())) + sink("o", COLUMNS)).replace("${RUN}", "plan");
        String regular = new ScriptPlanner(PlannerContext.defaults()).plan("t", ddl + query("o", BOUNDED_BY_COLUMN))
                .physicalPlans().get(0);
        assertTrue(regular.contains("Join(joinType=[inner]"), regular);
        assertTrue(regular.contains("expires"), regular);
        assertFalse(regular.contains("IntervalJoin"), regular);
        String interval = new ScriptPlanner(PlannerContext.defaults()).plan("t", ddl + query("o", INTERVAL))
                .physicalPlans().get(0);
        assertTrue(interval.contains("IntervalJoin("), interval);
    }
}
