package dev.rsql.cli;

import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.exec.TaskStatus;
import dev.rsql.runtime.lookup.DimensionTableStatus;
import dev.rsql.runtime.metrics.OperatorMetrics;
import dev.rsql.runtime.metrics.TaskMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rsql status} on the status files that job processes write. */
class StatusCommandTest {

    @TempDir
    Path home;

    private String status() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream old = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, RsqlCli.execute("--home", home.toString(), "status"));
        } finally {
            System.setOut(old);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private void write(String job, JobInstance.State state, int restarts, String cause) throws Exception {
        write(job, state, restarts, cause, List.of());
    }

    private void write(String job, JobInstance.State state, int restarts, String cause,
                       List<DimensionTableStatus> dimensionTables) throws Exception {
        long now = System.currentTimeMillis();
        StatusFile.write(home.resolve("run").resolve(job + ".status.json"), new JobStatus(job, "host-1", state,
                now, now, List.of(), null, restarts, cause, dimensionTables), ProcessHandle.current().pid(), 60_000);
    }

    @Test
    void dimensionTablesShowTheirCopyAndTheLoadUnderWay() throws Exception {
        write("enrich", JobInstance.State.RUNNING, 0, null, List.of(
                new DimensionTableStatus("users", 0, 0, 0, 120_000, 0, 0, null),
                new DimensionTableStatus("cities", 500, 3 << 20, 2, 200, 1_700_000_000_000L, 35, "java.io.IOException: gone")));
        String out = status();
        assertTrue(out.contains("dimension table users: not loaded yet; loading, 120000 rows so far"), out);
        assertTrue(out.contains("dimension table cities: 500 rows, 3 MB, loaded 2023-11-14T22:13:20Z in 35 ms (load 2);"
                + " loading, 200 rows so far; last reload failed: java.io.IOException: gone"), out);
    }

    @Test
    void aJobWaitingToRestartShowsTheAttemptAndItsCause() throws Exception {
        write("orders", JobInstance.State.RESTARTING, 3, "connect to 127.0.0.1:10911 failed");
        String out = status();
        assertTrue(out.contains("orders") && out.contains("RESTARTING "), out);
        assertTrue(out.contains("RESTARTING (attempt 3, connect to 127.0.0.1:10911 failed)"), out);
    }

    @Test
    void aRunningJobThatRestartedSaysHowOften() throws Exception {
        write("orders", JobInstance.State.RUNNING, 2, "send timed out");
        String out = status();
        assertTrue(out.contains("restarted 2 times, last after: send timed out"), out);
    }

    @Test
    void taskLinesShowBusyShareLateRowsAndWatermarkLag() throws Exception {
        long now = System.currentTimeMillis();
        TaskMetrics.Snapshot metrics = new TaskMetrics.Snapshot(10_000_000_000L, 2_500_000_000L, now - 4_000, 3,
                1_000_000, -1, 90, 7, List.of(new OperatorMetrics.Snapshot("window-aggregate-1", "WindowAggregate",
                100, 90, 7)));
        TaskStatus task = new TaskStatus("exchange-1#0", "partition 0", TaskStatus.State.RUNNING, 100, 90, 0, -1,
                now, null, null, 0, metrics);
        StatusFile.write(home.resolve("run").resolve("late.status.json"), new JobStatus("late", "host-1",
                JobInstance.State.RUNNING, now, now, List.of(task), null), ProcessHandle.current().pid(), 60_000);
        String out = status();
        assertTrue(out.contains("busy 25%  late 7  watermark lag 4.0s"), out);
    }
}
