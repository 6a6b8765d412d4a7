package dev.rsql.planner;

import dev.rsql.planner.TimedRows.Timed;
import dev.rsql.runtime.data.Row;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static dev.rsql.planner.TimedRows.all;
import static dev.rsql.planner.TimedRows.generate;
import static dev.rsql.planner.TimedRows.table;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A GROUP BY window_start, window_end over a window aggregation's output is a window aggregation too (insert-only,
 * fired by the watermark), as in Flink; with a window join back to the per-key counts that is Nexmark q5. Random
 * out-of-order input, compared with counts per HOP window computed here.
 */
class CascadedWindowAggregateSqlTest {

    private static final String COUNTS = "SELECT k, COUNT(*) AS n, window_start AS ws, window_end AS we FROM TABLE("
            + "HOP(TABLE a, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '4' SECOND)) GROUP BY k, window_start,"
            + " window_end";

    private static final String MAX = "SELECT MAX(n) AS maxn, ws, we FROM (" + COUNTS + ") GROUP BY ws, we";

    private static final String HOT = "INSERT INTO hot SELECT c.k, c.n, c.ws FROM (" + COUNTS + ") c JOIN (" + MAX
            + ") m ON c.ws = m.ws AND c.we = m.we AND c.n >= m.maxn;\n";

    /** Rows per key (not NULL: a NULL key is a group too) and window start. */
    private static Map<Long, Map<Integer, Long>> counts(List<Timed> rows) {
        Map<Long, Map<Integer, Long>> out = new TreeMap<>();
        for (Timed x : rows) {
            long last = x.ts() - Math.floorMod(x.ts(), 2000L);
            for (long start : List.of(last - 2000, last)) {
                out.computeIfAbsent(start, s -> new java.util.HashMap<>()).merge(x.k(), 1L, Long::sum);
            }
        }
        return out;
    }

    @Test
    void maxOfCountsPerWindowAndTheHotKeys() throws Exception {
        Random r = new Random(91);
        List<List<Timed>> a = generate(r, 3, 400, 7, 150);
        String script = table("a", a, "") + sink("maxes", "ws TIMESTAMP(3), we TIMESTAMP(3), maxn BIGINT")
                + "INSERT INTO maxes SELECT ws, we, maxn FROM (" + MAX + ");\n"
                + sink("hot", "k INT, n BIGINT, ws TIMESTAMP(3)") + HOT;
        Map<String, List<Row>> out = run(script, "maxes", "hot");
        List<String> maxes = new ArrayList<>();
        List<String> hot = new ArrayList<>();
        counts(all(a)).forEach((start, perKey) -> {
            long max = perKey.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            maxes.add(RandomEvents.text(start, start + 4000, max));
            perKey.forEach((k, n) -> {
                if (n == max) {
                    hot.add(RandomEvents.text(k, n, start));
                }
            });
        });
        maxes.sort(null);
        hot.sort(null);
        assertTrue(maxes.size() > 20, "windows: " + maxes.size());
        assertTrue(out.get("maxes").stream().allMatch(x -> x.kind().isAccumulate()), "insert-only");
        assertEquals(maxes, Changelog.materialize(out.get("maxes")));
        assertEquals(hot, Changelog.materialize(out.get("hot")));
    }

    @Test
    void explainShowsACascadedWindowAggregateAndAWindowJoin() {
        String script = table("a", List.of(List.of()), "") + sink("hot", "k INT, n BIGINT, ws TIMESTAMP(3)") + HOT;
        String plan = new ScriptPlanner(PlannerContext.defaults()).plan("t", script.replace("${RUN}", "plan")).physicalPlans().get(0);
        assertTrue(plan.contains("WindowAggregate(groupBy=[ws, we], select=[MAX($2)]) changelogMode=[I]"), plan);
        assertTrue(plan.contains("WindowJoin(joinType=[inner]"), plan);
        assertFalse(plan.contains("GroupAggregate"), plan);
    }
}
