package dev.rsql.planner;

import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.SourceNode;
import dev.rsql.runtime.testing.KeyedWindowCount;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SQL planned into a graph the caller builds: tables over its nodes, a query's result handed back as a node. */
class EmbeddedPlannerTest {

    @Test
    void aBoundTableIsReadFromItsNodeAndAQueryEndsInNoSink() {
        GraphBuilder b = new GraphBuilder("embedded");
        GraphBuilder.Stream events = b.source(KeyedWindowCount.table("events", "values", KeyedWindowCount.EVENTS,
                Map.of("id", "embedded")));
        EmbeddedPlanner planner = new EmbeddedPlanner(PlannerContext.defaults(), "embedded", b);
        planner.registerTable("ev", events, "ts", 2_000);
        GraphBuilder.Stream counts = planner.query("SELECT k, COUNT(*) AS c FROM ev GROUP BY k");
        GraphBuilder.Stream windows = planner.query("SELECT k, COUNT(*) AS c, window_start FROM TABLE(TUMBLE(TABLE ev,"
                + " DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end");
        assertTrue(counts.node().producesUpdates(), "a GROUP BY is an update stream");
        assertFalse(windows.node().producesUpdates(), "a window aggregation emits inserts");
        assertEquals(RowType.builder().field("k", DataType.string()).field("c", DataType.of(DataType.Kind.BIGINT)
                .notNull()).build(), counts.rowType());
        counts.sinkTo(KeyedWindowCount.table("out", "collect", counts.rowType(), Map.of()));
        windows.sinkTo(KeyedWindowCount.table("out2", "collect", windows.rowType(), Map.of()));
        planner.finish();
        JobGraph graph = b.build();
        assertEquals(1, graph.sources().size(), graph.explain());
        assertEquals(events.node(), graph.sources().get(0));
        assertEquals(2, graph.sinks().size(), "the queries' placeholders are no sinks: " + graph.explain());
        assertTrue(graph.nodes().stream().noneMatch(n -> n instanceof SourceNode
                && ((SourceNode) n).table().connector().startsWith("$")), graph.explain());
    }

    @Test
    void onlyASelectIsAQuery() {
        EmbeddedPlanner planner = new EmbeddedPlanner(PlannerContext.defaults(), "embedded", new GraphBuilder("e"));
        PlanningException e = assertThrows(PlanningException.class,
                () -> planner.query("CREATE TABLE t (a INT) WITH ('connector' = 'datagen')"));
        assertTrue(e.getMessage().contains("SELECT"), e.getMessage());
        PlanningException unknown = assertThrows(PlanningException.class,
                () -> planner.query("SELECT * FROM nowhere"));
        assertTrue(unknown.getMessage().contains("nowhere"), unknown.getMessage());
    }
}
