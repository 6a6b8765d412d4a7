package dev.rsql.cli;

import dev.rsql.runtime.testing.Await;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.stream.Stream;

import static dev.rsql.cli.DistributionIT.exec;
import static dev.rsql.cli.DistributionIT.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Server mode of the built tarball: {@code bin/start.sh --server}, the command line against it,
 * {@code bin/stop.sh --server}.
 */
class ServerModeIT {

    static Path home;

    @BeforeAll
    static void unpack() throws Exception {
        home = DistributionIT.unpack();
        try (Stream<Path> jobs = Files.walk(home.resolve("jobs"))) {
            jobs.filter(p -> p.toString().endsWith(".sql") || p.toString().endsWith(".rules.yaml"))
                    .forEach(p -> p.toFile().delete());
        }
        Files.writeString(home.resolve("conf/rsql.conf"), "\nhttp.port=0\nserver.poll-interval=200ms\n",
                StandardOpenOption.APPEND);
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (home != null) {
            exec(home, 180, "bin/stop.sh", "--server");
        }
    }

    private static String ticker(String id) {
        return "CREATE TABLE ticks (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '20',"
                + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100000000');\n"
                + "CREATE TABLE shown (id BIGINT) WITH ('connector' = 'print', 'print-identifier' = '" + id + "',"
                + " 'target' = 'log');\n"
                + "INSERT INTO shown SELECT id FROM ticks;\n";
    }

    @Test
    void theServerRunsJobsFromJobsAndTheCommandLineDrivesIt() throws Exception {
        Files.writeString(home.resolve("jobs/ticker.sql"), ticker("T"));
        DistributionIT.Result start = exec(home, 120, "bin/start.sh", "--server");
        assertEquals(0, start.code(), start.output());
        assertTrue(start.output().contains("started the server"), start.output());
        Await.until("the job's rows in its own log", Duration.ofSeconds(60),
                () -> read(home.resolve("log/ticker.log")).contains("T> +I[5]"));

        DistributionIT.Result list = exec(home, 60, "bin/rsql", "list");
        assertEquals(0, list.code(), list.output());
        assertTrue(list.output().contains("ticker") && list.output().contains("RUNNING"), list.output());
        DistributionIT.Result status = exec(home, 60, "bin/rsql", "status");
        assertTrue(status.output().contains("ticker") && status.output().contains("RUNNING"), status.output());

        Path other = home.resolve("other.sql");
        Files.writeString(other, ticker("O"));
        DistributionIT.Result submit = exec(home, 120, "bin/rsql", "submit", other.toString());
        assertEquals(0, submit.code(), submit.output());
        assertTrue(Files.exists(home.resolve("jobs/other.sql")));
        Await.until("the submitted job's rows", Duration.ofSeconds(60),
                () -> read(home.resolve("log/other.log")).contains("O> +I[5]"));
        assertFalse(read(home.resolve("log/other.log")).contains("T> "), "each job has its own log");

        // a rule file dropped into jobs/ is picked up like a script
        Path events = home.resolve("events.jsonl");
        Files.writeString(events, "{\"type\":\"order.paid\",\"data\":{\"id\":7}}\n"
                + "{\"type\":\"order.created\",\"data\":{\"id\":8}}\n");
        Files.writeString(home.resolve("jobs/paid.rules.yaml"), "bus: {connector: filesystem, path: '" + events
                + "'}\ntargets:\n  log: {connector: print, print-identifier: R, target: log}\nrules:\n"
                + "  - {name: paid, pattern: {type: [order.paid]}, transform: {path: $.data.id}, targets: [log]}\n");
        Await.until("the rule file's rows in its log", Duration.ofSeconds(60),
                () -> read(home.resolve("log/paid.log")).contains("R> +I[7]"));
        assertFalse(read(home.resolve("log/paid.log")).contains("R> +I[8]"), "only what the pattern selects");

        DistributionIT.Result stop = exec(home, 120, "bin/rsql", "stop", "ticker");
        assertEquals(0, stop.code(), stop.output());
        assertEquals(1, exec(home, 60, "bin/rsql", "stop", "ticker").code(), "no longer running");

        DistributionIT.Result stopServer = exec(home, 180, "bin/stop.sh", "--server");
        assertEquals(0, stopServer.code(), stopServer.output());
        assertTrue(stopServer.output().contains("stopped server"), stopServer.output());
        assertFalse(Files.exists(home.resolve("run/server.json")));
        assertTrue(read(home.resolve("run/other.status.json")).contains("\"state\":\"STOPPED\""),
                read(home.resolve("run/other.status.json")));
    }
}
