package dev.rsql.planner;

import dev.rsql.planner.RandomEvents.Event;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.CalcNode;
import dev.rsql.runtime.graph.GroupAggregateNode;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.UpsertMaterializeNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The changelog the planner infers and what it makes the plan do with it: filters over updates, sinks keyed
 * differently from the query, append-only sinks, and -U rows only where a consumer needs them.
 */
class ChangelogSqlTest {

    /** The events grouped by (k, s), in input order per group. */
    private static Map<String, List<Event>> groups(List<List<Event>> shards) {
        return RandomEvents.all(shards).stream()
                .collect(Collectors.groupingBy(e -> text(e.k(), e.s()), TreeMap::new, Collectors.toList()));
    }

    private static long sum(List<Event> events) {
        return events.stream().map(Event::v).filter(Objects::nonNull).mapToLong(v -> v - 50).sum();
    }

    private static List<String> upsertTable(List<Row> rows, int... key) {
        return Changelog.upsert(rows, key).values().stream().map(r -> text(r.toArray())).sorted()
                .collect(Collectors.toList());
    }

    /**
     * A HAVING over a non-window GROUP BY: sums wander around zero, so groups enter and leave the filter many times.
     * A sink keyed by the group holds exactly the groups passing at the end (a group that stops passing is deleted,
     * as in Flink), and a sink without a key materializes to the same table.
     */
    @Test
    void havingOverAGroupByLeavesOnlyThePassingGroups() throws Exception {
        List<List<Event>> shards = RandomEvents.generate(41, 3, 500);
        String select = " SELECT k, s, SUM(v - 50), COUNT(*) FROM ev GROUP BY k, s HAVING SUM(v - 50) < 0;\n";
        String columns = "k VARCHAR, s VARCHAR, total BIGINT, n BIGINT";
        Map<String, List<Row>> out = run(RandomEvents.eventTable(shards)
                + sink("keyed", columns + ", PRIMARY KEY (k, s) NOT ENFORCED") + sink("retract", columns)
                + "INSERT INTO keyed" + select + "INSERT INTO retract" + select, "keyed", "retract");

        List<String> expected = new ArrayList<>();
        groups(shards).forEach((group, events) -> {
            if (sum(events) < 0) {
                expected.add(text(events.get(0).k(), events.get(0).s(), sum(events), (long) events.size()));
            }
        });
        expected.sort(null);
        assertTrue(expected.size() > 10 && expected.size() < 90, "both passing and failing groups: " + expected.size());
        assertTrue(out.get("keyed").stream().anyMatch(r -> r.kind() == RowKind.DELETE),
                "a group that stops passing is deleted");
        assertFalse(out.get("keyed").stream().anyMatch(r -> r.kind() == RowKind.UPDATE_BEFORE));
        assertEquals(expected, upsertTable(out.get("keyed"), 0, 1));
        assertEquals(expected, Changelog.materialize(out.get("retract")));
    }

    /**
     * A sink whose primary key is not the query's upsert key: (k, s, n) for a GROUP BY k, s, where each new count is
     * a new sink key, and a key computed from the group fields, which the planner cannot see is unique. Both go
     * through an upsert materializer and end as the right table; deletes (groups leaving the HAVING) included.
     */
    @Test
    void aSinkKeyedDifferentlyFromTheQueryGetsTheRightFinalTable() throws Exception {
        List<List<Event>> shards = RandomEvents.generate(42, 3, 400);
        String script = RandomEvents.eventTable(shards)
                + sink("wide", "k VARCHAR, s VARCHAR, n BIGINT, PRIMARY KEY (k, s, n) NOT ENFORCED")
                + sink("computed", "ks VARCHAR, n BIGINT, PRIMARY KEY (ks) NOT ENFORCED")
                + "INSERT INTO wide SELECT k, s, COUNT(*) FROM ev GROUP BY k, s HAVING COUNT(*) % 3 <> 0;\n"
                + "INSERT INTO computed SELECT CONCAT(k, '-', s), COUNT(*) FROM ev GROUP BY k, s;\n";
        JobGraph graph = ScriptPlannerTest.plan(script.replace("${RUN}", "plan"));
        assertEquals(2, ScriptPlannerTest.nodes(graph, UpsertMaterializeNode.class).size(), graph.explain());
        Map<String, List<Row>> out = run(script, "wide", "computed");

        List<String> wide = new ArrayList<>();
        List<String> computed = new ArrayList<>();
        groups(shards).values().forEach(events -> {
            Event e = events.get(0);
            if (events.size() % 3 != 0) {
                wide.add(text(e.k(), e.s(), (long) events.size()));
            }
            computed.add(text(e.k() + "-" + e.s(), (long) events.size()));
        });
        wide.sort(null);
        computed.sort(null);
        assertTrue(wide.size() < computed.size(), "some groups end outside the HAVING");
        assertEquals(wide, upsertTable(out.get("wide"), 0, 1, 2));
        assertEquals(computed, upsertTable(out.get("computed"), 0));
    }

    /**
     * A filter over a union of two aggregations: the union has no upsert key, so the filter cannot pair the halves
     * of an update and sends every update that passes as a delete and an insert; the keyed sink, whose key the plan
     * cannot see is unique, is fed through a materializer. The final table holds exactly the passing groups.
     */
    @Test
    void aFilterOverAChangelogWithoutKeysSplitsEveryUpdate() throws Exception {
        List<List<Event>> shards = RandomEvents.generate(43, 3, 300);
        Map<String, List<Row>> out = run(RandomEvents.eventTable(shards)
                + sink("u", "src VARCHAR, k VARCHAR, s VARCHAR, n BIGINT, PRIMARY KEY (src, k, s) NOT ENFORCED")
                + "INSERT INTO u SELECT * FROM (SELECT 'a' AS src, k, s, COUNT(*) AS n FROM ev GROUP BY k, s"
                + " UNION ALL SELECT 'b', k, s, SUM(v - 50) FROM ev GROUP BY k, s) WHERE MOD(n, 4) <> 0;\n", "u");
        List<String> expected = new ArrayList<>();
        groups(shards).values().forEach(events -> {
            Event e = events.get(0);
            if (events.size() % 4 != 0) {
                expected.add(text("a", e.k(), e.s(), (long) events.size()));
            }
            if (events.stream().anyMatch(x -> x.v() != null) && sum(events) % 4 != 0) {
                expected.add(text("b", e.k(), e.s(), sum(events)));
            }
        });
        expected.sort(null);
        assertTrue(out.get("u").stream().anyMatch(r -> r.kind() == RowKind.DELETE), "groups leave the filter");
        assertEquals(expected, upsertTable(out.get("u"), 0, 1, 2));
    }

    /** A changelog into a table that can only append is refused at plan time, at the INSERT. */
    @Test
    void anAppendOnlySinkFedUpdatesIsAPlanError() {
        String ddl = "CREATE TABLE ev (k VARCHAR, v BIGINT) WITH (type = 'values', id = 'none');\n"
                + "CREATE TABLE counts (k VARCHAR, n BIGINT) WITH (connector = 'filesystem', path = '/tmp/never.csv',"
                + " format = 'csv');\n";
        PlanningException e = assertThrows(PlanningException.class,
                () -> ScriptPlannerTest.plan(ddl + "INSERT INTO counts SELECT k, COUNT(*) FROM ev GROUP BY k;"));
        assertTrue(e.getMessage().startsWith("line 3, column 1: Table sink 'counts' doesn't support consuming update "
                + "changes which is produced by node GroupAggregate(groupBy=[k]"), e.getMessage());
        // Inserts are fine; so are updates in json, which keeps row kinds, or into a table with a key.
        ScriptPlannerTest.plan(ddl + "INSERT INTO counts SELECT k, v FROM ev;");
        ScriptPlannerTest.plan(ddl.replace("'csv'", "'json'")
                + "INSERT INTO counts SELECT k, COUNT(*) FROM ev GROUP BY k;");
        ScriptPlannerTest.plan(ddl.replace("n BIGINT)", "n BIGINT, PRIMARY KEY (k) NOT ENFORCED)")
                + "INSERT INTO counts SELECT k, COUNT(*) FROM ev GROUP BY k;");
    }

    /**
     * -U rows only where a consumer needs them: not for a sink keyed by the group, yes for a sink without a key and
     * for a filter. EXPLAIN shows each node's changelog mode and upsert keys.
     */
    @Test
    void updateBeforeOnlyWhereNeededAndExplainShowsTheChangelog() {
        String ddl = "CREATE TABLE ev (k VARCHAR, v BIGINT) WITH (type = 'values', id = 'none');\n"
                + "CREATE TABLE keyed (k VARCHAR, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (type = 'collect');\n"
                + "CREATE TABLE plain (k VARCHAR, n BIGINT) WITH (type = 'collect');\n";
        String count = " SELECT k, COUNT(*) FROM ev GROUP BY k";
        PlannedJob keyed = new ScriptPlanner(PlannerContext.defaults()).plan("t", ddl + "INSERT INTO keyed" + count);
        assertFalse(ScriptPlannerTest.nodes(keyed.graph(), GroupAggregateNode.class).get(0).emitsUpdateBefore());
        String plan = keyed.physicalPlans().get(0);
        assertTrue(plan.contains("GroupAggregate(groupBy=[k], select=[COUNT()]) changelogMode=[I,UA] upsertKeys=[[k]]"),
                plan);
        assertTrue(plan.contains("TableSourceScan(table=[ev]) changelogMode=[I]"), plan);
        assertTrue(plan.startsWith("Sink(table=[keyed], primaryKey=[k]) changelogMode=[I,UA]"), plan);

        PlannedJob plain = new ScriptPlanner(PlannerContext.defaults()).plan("t", ddl + "INSERT INTO plain" + count);
        assertTrue(ScriptPlannerTest.nodes(plain.graph(), GroupAggregateNode.class).get(0).emitsUpdateBefore());
        assertTrue(plain.physicalPlans().get(0).contains("changelogMode=[I,UB,UA] upsertKeys=[[k]]"),
                plain.physicalPlans().get(0));

        PlannedJob having = new ScriptPlanner(PlannerContext.defaults()).plan("t",
                ddl + "INSERT INTO keyed" + count + " HAVING COUNT(*) < 3");
        assertTrue(ScriptPlannerTest.nodes(having.graph(), GroupAggregateNode.class).get(0).emitsUpdateBefore());
        assertTrue(ScriptPlannerTest.nodes(having.graph(), CalcNode.class).stream().anyMatch(CalcNode::splitsUpdates),
                having.graph().explain());
        assertTrue(having.physicalPlans().get(0).contains(") changelogMode=[I,UB,UA,D] upsertKeys=[[k]]"),
                having.physicalPlans().get(0));
        assertTrue(ScriptPlannerTest.nodes(having.graph(), UpsertMaterializeNode.class).isEmpty());

        PlannedJob join = new ScriptPlanner(PlannerContext.defaults()).plan("t", ddl
                + "CREATE TABLE users (k VARCHAR, level BIGINT) WITH (type = 'values', id = 'none');\n"
                + "INSERT INTO keyed SELECT ev.k, users.level FROM ev LEFT JOIN users ON ev.k = users.k"
                + " AND ev.v >= users.level * 2");
        String joinPlan = join.physicalPlans().get(0);
        assertTrue(joinPlan.contains("Join(joinType=[left], leftKeys=[k], rightKeys=[k], where=[((k = k0) AND "
                + "(v >= (level * 2)))]) changelogMode=[I,D]\n"), joinPlan);
        assertTrue(joinPlan.contains("UpsertMaterialize(key=[k]) changelogMode=[I,UA,D]"), joinPlan);
    }
}
