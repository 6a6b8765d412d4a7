package dev.rsql.planner;

import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.rsql.planner.RandomEvents.BASE;
import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Allowed lateness, the late-data table, and EMIT's early and late firings, each per INSERT. */
class EmitAndLatenessSqlTest {

    private static final String COUNT_PER_WINDOW = " SELECT k, window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE ev,"
            + " DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY k, window_start, window_end";

    private static String event(long offset) {
        return "{\"k\":\"a\",\"ts\":" + (BASE + offset) + "}";
    }

    private static String table(String id, String extraOptions) {
        return "CREATE TABLE ev (k VARCHAR, ts TIMESTAMP(3), WATERMARK FOR ts AS withOffset(ts, 1000))"
                + " WITH (type = 'values', id = '" + id + "'" + extraOptions + ");\n";
    }

    /**
     * One shard, so the watermark follows the rows exactly. The window [0 s, 5 s) closes at watermark 6 s; the INSERT
     * with a late-firing EMIT keeps it for one more minute and updates it with the row at 3 s, the other drops that
     * row into the late-data table at once. The row at 3.5 s, after watermark 69 s, is late for both.
     */
    @Test
    void lateRowsUpdateResultsWithinAllowedLatenessAndGoToTheLateTableAfter() throws Exception {
        String id = "late-" + System.nanoTime();
        ValuesSourceFactory.register(id, List.of(event(1000), event(4000), event(7000), event(3000), event(5500),
                event(70_000), event(3500)));
        Map<String, List<Row>> out = run("SET 'table.exec.emit.allow-lateness' = '1 min';\n"
                + "SET 'table.exec.late-data.table' = 'late_rows';\n" + table(id, "")
                + sink("updated", "k VARCHAR, ws TIMESTAMP(3), n BIGINT")
                + sink("final", "k VARCHAR, ws TIMESTAMP(3), n BIGINT")
                + sink("late_rows", "k VARCHAR, window_start TIMESTAMP(3), window_end TIMESTAMP(3), watermark"
                + " TIMESTAMP(3), other VARCHAR")
                + "INSERT INTO updated" + COUNT_PER_WINDOW + " EMIT WITHOUT DELAY AFTER WATERMARK;\n"
                + "INSERT INTO final" + COUNT_PER_WINDOW + ";\n", "updated", "final", "late_rows");

        assertEquals(List.of("+I|a|" + BASE + "|2", "-U|a|" + BASE + "|2", "+U|a|" + BASE + "|3",
                "+I|a|" + (BASE + 5000) + "|2", "+I|a|" + (BASE + 70_000) + "|1"), changelog(out.get("updated")));
        assertEquals(List.of("+I|a|" + BASE + "|2", "+I|a|" + (BASE + 5000) + "|2", "+I|a|" + (BASE + 70_000) + "|1"),
                changelog(out.get("final")));
        // The row at 3 s once (for 'final'), the row at 3.5 s twice (once per INSERT).
        assertEquals(List.of(text("a", BASE, BASE + 5000, BASE + 6000, null),
                text("a", BASE, BASE + 5000, BASE + 69_000, null), text("a", BASE, BASE + 5000, BASE + 69_000, null)),
                RandomEvents.texts(out.get("late_rows")));
    }

    /**
     * An open window's result is emitted early, no sooner than the configured delay after the rows that changed it,
     * and again (as an update) after more rows; the watermark never reaches the window's end here.
     */
    @Test
    void earlyResultsComeAtTheConfiguredCadenceBeforeTheWindowCloses() throws Exception {
        String id = "early-" + System.nanoTime();
        ValuesSourceFactory.register(id, List.of());
        try (TestJob job = new TestJob("early", table(id, ", bounded = 'false'")
                + sink("o", "k VARCHAR, ws TIMESTAMP(3), n BIGINT")
                + "INSERT INTO o SELECT k, window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts),"
                + " INTERVAL '1' HOUR)) GROUP BY k, window_start, window_end"
                + " EMIT WITH DELAY '1' SECOND BEFORE WATERMARK")) {
            long firstRows = System.currentTimeMillis();
            ValuesSourceFactory.append(id, 0, event(0), event(1000), event(2000));
            List<Row> rows = job.await("o", r -> r.size() == 1);
            assertTrue(System.currentTimeMillis() - firstRows >= 1000, "an early result came before the delay");
            assertEquals(List.of("+I|a|" + hourStart() + "|3"), changelog(rows));

            long moreRows = System.currentTimeMillis();
            ValuesSourceFactory.append(id, 0, event(3000), event(4000));
            rows = job.await("o", r -> r.size() == 3);
            assertTrue(System.currentTimeMillis() - moreRows >= 1000, "an early update came before the delay");
            assertEquals(List.of("+I|a|" + hourStart() + "|3", "-U|a|" + hourStart() + "|3",
                    "+U|a|" + hourStart() + "|5"), changelog(rows));
            assertEquals(JobInstance.State.RUNNING, job.job().state(), "the window is still open: the job runs on");
        }
    }

    private static long hourStart() {
        return BASE - Math.floorMod(BASE, 3_600_000L);
    }

    static List<String> changelog(List<Row> rows) {
        return rows.stream().map(r -> r.kind().shortString() + "|" + text(r.fields())).collect(Collectors.toList());
    }
}
