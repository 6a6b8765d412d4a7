package dev.rsql.cli;

import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.exec.JobStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

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
            assertEquals(0, new CommandLine(new RsqlCli()).execute("--home", home.toString(), "status"));
        } finally {
            System.setOut(old);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private void write(String job, JobInstance.State state, int restarts, String cause) throws Exception {
        long now = System.currentTimeMillis();
        StatusFile.write(home.resolve("run").resolve(job + ".status.json"), new JobStatus(job, "host-1", state,
                now, now, List.of(), null, restarts, cause), ProcessHandle.current().pid(), 60_000);
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
}
