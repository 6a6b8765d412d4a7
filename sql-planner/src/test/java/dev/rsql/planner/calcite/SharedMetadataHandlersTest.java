package dev.rsql.planner.calcite;

import dev.rsql.planner.PlannedJob;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SharedMetadataHandlersTest {

    /** Uses metadata (unique keys of the aggregation, for the join's and the keyed sink's changelog). */
    private static final String SCRIPT = "CREATE TABLE a (k INT, x BIGINT) WITH (type = 'values', id = 'a');\n"
            + "CREATE TABLE b (k INT, y BIGINT) WITH (type = 'values', id = 'b');\n"
            + "CREATE TABLE o (k INT, s BIGINT, y BIGINT, PRIMARY KEY (k, y) NOT ENFORCED) WITH (type = 'collect');\n"
            + "CREATE TABLE c (k INT, n BIGINT) WITH (type = 'collect');\n"
            + "CREATE VIEW sums AS SELECT k, SUM(x) AS s FROM a GROUP BY k;\n"
            + "INSERT INTO o SELECT sums.k, sums.s, b.y FROM sums JOIN b ON sums.k = b.k WHERE b.y > 3;\n"
            + "INSERT INTO c SELECT k, COUNT(*) FROM b WHERE y < 100 GROUP BY k;\n";

    @Test
    void aHandlerIsMadeOncePerKind() {
        assertSame(SharedMetadataHandlers.INSTANCE.handler(BuiltInMetadata.UniqueKeys.Handler.class),
                SharedMetadataHandlers.INSTANCE.handler(BuiltInMetadata.UniqueKeys.Handler.class));
    }

    /** Planners on several threads at once (as the server's) share the handlers and plan as one planner alone. */
    @Test
    void plannersOnSeveralThreadsPlanAsOneAlone() throws Exception {
        PlannedJob alone = plan();
        assertTrue(String.join("\n", alone.physicalPlans()).contains("Join"), alone.physicalPlans().toString());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<PlannedJob>> planned = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                planned.add(pool.submit(SharedMetadataHandlersTest::plan));
            }
            for (Future<PlannedJob> f : planned) {
                PlannedJob job = f.get(60, TimeUnit.SECONDS);
                assertEquals(alone.relationalPlans(), job.relationalPlans());
                assertEquals(alone.physicalPlans(), job.physicalPlans());
                assertEquals(alone.graph().explain(), job.graph().explain());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static PlannedJob plan() {
        return new ScriptPlanner(PlannerContext.defaults()).plan("test", SCRIPT);
    }
}
