package dev.rsql.cli;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.exec.JobStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line's usage surface: --help everywhere, documented exit codes, status as JSON, stop.sh's exit code. */
class CliUsageTest {

    @TempDir
    Path home;

    private record Run(int code, String out, String err) {
    }

    private Run rsql(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            String[] all = new String[args.length + 2];
            all[0] = "--home";
            all[1] = home.toString();
            System.arraycopy(args, 0, all, 2, args.length);
            int code = RsqlCli.execute(all);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void everySubcommandHasHelpWithItsExitCodes() {
        for (String command : List.of("check", "explain", "run", "status", "jobs", "reset", "sql")) {
            Run help = rsql(command, "--help");
            assertEquals(0, help.code, command);
            assertTrue(help.out.contains("Usage: rsql " + command), help.out);
            assertTrue(help.out.contains("Exit codes:") && help.out.contains("  0 "), help.out);
        }
        Run top = rsql("--help");
        assertTrue(top.out.contains("--help") && top.out.contains("check"), top.out);
    }

    @Test
    void helpListsEveryOptionWithItsValueAndWrapsLongDescriptions() {
        // logback may print its own status lines on first use: the help is what follows them
        String help = rsql("run", "--help").out;
        help = help.substring(Math.max(0, help.indexOf("Usage: rsql run")));
        assertTrue(help.startsWith("Usage: rsql run [OPTIONS] SCRIPT\n"), help);
        for (String option : List.of("-D, --set KEY=VALUE", "--from-scratch", "--instance ID", "--name NAME",
                "-h, --help", "-V, --version")) {
            assertTrue(help.contains(option), option + " in\n" + help);
        }
        assertTrue(help.lines().allMatch(l -> l.length() <= 80), help);
        assertTrue(rsql("--version").out.endsWith("rsql 0.1.0\n"));
        assertTrue(rsql("jobs", "-V").out.endsWith("rsql 0.1.0\n"));
    }

    @Test
    void wrongUsageExitsWithTwoNamingWhatIsWrong() {
        assertWrongUsage(rsql("bogus"), "Unknown command: 'bogus'", "Usage: rsql [OPTIONS] COMMAND");
        assertWrongUsage(rsql(), "Missing required command", "Usage: rsql [OPTIONS] COMMAND");
        assertWrongUsage(rsql("run"), "Missing required parameter: 'SCRIPT'", "Usage: rsql run");
        assertWrongUsage(rsql("run", "a.sql", "b.sql"), "Unmatched argument: 'b.sql'", "Usage: rsql run");
        assertWrongUsage(rsql("run", "a.sql", "--bogus"), "Unknown option: '--bogus'", "Usage: rsql run");
        assertWrongUsage(rsql("run", "a.sql", "-D"), "Missing value for option '-D'", "Usage: rsql run");
        assertWrongUsage(rsql("run", "a.sql", "-D", "nokey"), "must be KEY=VALUE: 'nokey'", "Usage: rsql run");
        assertWrongUsage(rsql("status", "--json=yes"), "Option '--json' takes no value", "Usage: rsql status");
        assertWrongUsage(rsql("sql", "--max-rows", "ten"), "'ten' is not a whole number", "Usage: rsql sql");
        assertWrongUsage(rsql("reset"), "Missing required parameter: 'JOB'", "Usage: rsql reset");
        assertWrongUsage(rsql("explain", "no_such_job"), "no script no_such_job", "Usage: rsql explain");
    }

    private static void assertWrongUsage(Run run, String error, String usage) {
        assertEquals(2, run.code, run.err);
        assertTrue(run.err.lines().findFirst().orElse("").contains(error), error + " first in\n" + run.err);
        assertTrue(run.err.contains(usage), run.err);
    }

    @Test
    void optionsTakeTheirValuesInEveryForm() throws Exception {
        Path script = home.resolve("values.sql");
        Files.writeString(script, "CREATE TABLE gen (v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');\n"
                + "CREATE TABLE out_t (v INT) WITH ('connector' = 'blackhole');\n"
                + "INSERT INTO out_t SELECT v FROM gen;\n");
        // -Dkey=value, -D key=value, --set=key=value and --set key=value, options after the script, -- before it
        Run run = rsql("run", "-Dstate.dir=" + home.resolve("state1"), "--name=renamed", "--", script.toString());
        assertEquals(0, run.code, run.err);
        assertTrue(Files.isDirectory(home.resolve("state1")), "state.dir set by -Dkey=value");
        assertTrue(Files.exists(home.resolve("run").resolve("renamed.status.json")), "job named by --name=");
        run = rsql("run", script.toString(), "--set", "state.dir=" + home.resolve("state2"), "--name", "other",
                "-D", "worker.threads=1");
        assertEquals(0, run.code, run.err);
        assertTrue(Files.isDirectory(home.resolve("state2")), "state.dir set by --set key=value");
        assertTrue(Files.exists(home.resolve("run").resolve("other.status.json")), "job named by --name NAME");
        run = rsql("run", script.toString(), "--set=state.dir=" + home.resolve("state3"));
        assertEquals(0, run.code, run.err);
        assertTrue(Files.isDirectory(home.resolve("state3")), "state.dir set by --set=key=value");
    }

    @Test
    void statusAsJsonCarriesTheStateOfEachJob() throws Exception {
        long now = System.currentTimeMillis();
        StatusFile.write(home.resolve("run").resolve("orders.status.json"), new JobStatus("orders", "host-1",
                JobInstance.State.RUNNING, now, now, List.of(), null, 0, null, List.of()), ProcessHandle.current().pid(), 60_000);
        // A process that has ended while its status said RUNNING.
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor(30, TimeUnit.SECONDS);
        StatusFile.write(home.resolve("run").resolve("gone.status.json"), new JobStatus("gone", "host-1",
                JobInstance.State.RUNNING, now, now, List.of(), null, 0, null, List.of()), ended.pid(), 60_000);

        Run json = rsql("status", "--json");
        assertEquals(0, json.code);
        // The last line: logback may report its own start-up on stdout before.
        JSONArray jobs = JSON.parseArray(json.out.lines().reduce((a, b) -> b).orElseThrow());
        assertEquals(2, jobs.size(), json.out);
        assertEquals("gone", jobs.getJSONObject(0).getString("job"));
        assertEquals("DEAD", jobs.getJSONObject(0).getString("state"));
        assertEquals("orders", jobs.getJSONObject(1).getString("job"));
        assertEquals("RUNNING", jobs.getJSONObject(1).getString("state"));

        Run table = rsql("status");
        String header = table.out.lines().findFirst().orElseThrow();
        assertTrue(header.startsWith("JOB") && header.contains("STATE") && header.contains("RECORDS IN"), table.out);
        assertTrue(table.out.lines().anyMatch(l -> l.startsWith("gone") && l.contains("DEAD")), table.out);
    }

    @Test
    void stoppingAJobThatIsNotRunningFails() throws Exception {
        Path bin = Files.createDirectories(home.resolve("bin"));
        for (String script : List.of("stop.sh", "common.sh")) {
            Files.copy(Path.of("..", "bin", script), bin.resolve(script));
        }
        Files.createDirectories(home.resolve("lib"));
        Files.writeString(home.resolve("lib").resolve("engine.jar"), "");
        assertEquals(1, stop("no_such_job"));
        assertEquals(0, stop());
    }

    private int stop(String... jobs) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("bash", "bin/stop.sh"));
        command.addAll(List.of(jobs));
        ProcessBuilder pb = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("RSQL_HOME", home.toString());
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return p.exitValue();
    }
}
