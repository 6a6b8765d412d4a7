package dev.rsql.cli.server;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.cli.EngineHome;
import dev.rsql.cli.RsqlCli;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Server mode in this JVM: scripts dropped into, changed in and removed from jobs/, and the REST API and the
 * {@code rsql submit|stop|list} commands against the running server.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class JobServerTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path home;
    private RsqlServer server;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void startServer() throws IOException {
        Files.createDirectories(home.resolve("jobs"));
        EngineHome engineHome = new EngineHome(home, n -> null);
        Map<String, String> settings = new HashMap<>(engineHome.loadConfig());
        settings.put("http.port", "0");
        settings.put("server.poll-interval", "100ms");
        settings.put("checkpoint.interval", "200ms");
        settings.put("worker.threads", "2");
        server = RsqlServer.start(engineHome, settings, getClass().getClassLoader());
    }

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static String source() {
        String id = "server-in-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, List.of());
        return id;
    }

    private static String script(String in, String out, String select) {
        return "CREATE TABLE s (v BIGINT) WITH (type = 'values', bounded = 'false', id = '" + in + "');\n"
                + "CREATE TABLE o (v BIGINT) WITH (type = 'collect', id = '" + out + "');\n"
                + "INSERT INTO o " + select + ";\n";
    }

    private static void append(String id, long from, long to) {
        ValuesSourceFactory.append(id, 0, LongStream.range(from, to).mapToObj(v -> "{\"v\":" + v + "}")
                .toArray(String[]::new));
    }

    private static List<Long> values(String sink) {
        return CollectSinkFactory.rows(sink).stream().map(r -> ((Number) r.get(0)).longValue()).sorted()
                .collect(Collectors.toList());
    }

    private static void awaitValues(String sink, long from, long to, long factor) {
        List<Long> expected = LongStream.range(from, to).map(v -> v * factor).boxed().collect(Collectors.toList());
        Await.until(() -> sink + " to hold " + expected + ", has " + values(sink), WAIT,
                () -> values(sink).containsAll(expected));
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String get(String path) {
        try {
            return send("GET", path, null).body();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private JSONObject job(String name) {
        try {
            HttpResponse<String> r = send("GET", "/api/jobs/" + name, null);
            return r.statusCode() == 200 ? JSON.parseObject(r.body()) : null;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private void write(String name, String text) throws IOException {
        Path file = home.resolve("jobs").resolve(name + ".sql");
        Path tmp = home.resolve(name + ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    @Test
    void scriptsDroppedChangedBrokenAndRemovedInJobs() throws Exception {
        String in = source();
        String v1 = in + "-v1";
        String v2 = in + "-v2";
        write("rules", script(in, v1, "SELECT v * 2 FROM s"));
        Await.until("the job runs", WAIT, () -> server.processJobs().list().size() == 1);
        append(in, 0, 20);
        awaitValues(v1, 0, 20, 2);
        // the same port serves the job's metrics and the status page's data
        Await.until("the job's records in /metrics", WAIT, () -> get("/metrics")
                .matches("(?s).*\\nrsql_job_records_in_total\\{job=\"rules\"} 20(\\.0)?\\n.*"));
        assertTrue(get("/ui/api/jobs").contains("\"rules\""), "the status page lists the job");

        // a new version: the old one stops, the new one starts and writes
        write("rules", script(in, v2, "SELECT v * 3 FROM s"));
        append(in, 20, 40);
        awaitValues(v2, 20, 40, 3);
        int v1Rows = values(v1).size();

        // a broken version: the running one stays, the error is in the status and the job's log
        write("rules", script(in, v2, "SELECT nope FROM s"));
        Await.until("the error reported", WAIT, () -> {
            JSONObject j = job("rules");
            return j != null && j.getString("scriptError") != null;
        });
        JSONObject status = job("rules");
        assertTrue(status.getString("scriptError").contains("line 3, column 22") && status.getString("scriptError")
                .contains("nope"), status.toJSONString());
        assertEquals("RUNNING", status.getString("state"));
        append(in, 40, 60);
        awaitValues(v2, 40, 60, 3);
        assertEquals(v1Rows, values(v1).size(), "the first version stopped");
        String log = Files.readString(home.resolve("log").resolve("rules.log"));
        assertTrue(log.contains("does not pass check; the running version stays") && log.contains("nope"), log);
        // bin/rsql status sees the server's job through its status file
        JSONObject file = JSON.parseObject(Files.readString(home.resolve("run").resolve("rules.status.json")));
        assertEquals("RUNNING", file.getString("state"));
        assertEquals(ProcessHandle.current().pid(), file.getLongValue("pid"));

        // the running version written back: the error is gone, nothing restarts
        long started = status.getLongValue("started");
        write("rules", script(in, v2, "SELECT v * 3 FROM s"));
        Await.until("the error cleared", WAIT, () -> job("rules").getString("scriptError") == null);
        assertEquals(started, job("rules").getLongValue("started"));

        // removed: the job stops gracefully
        Files.delete(home.resolve("jobs").resolve("rules.sql"));
        Await.until("the job stopped", WAIT, () -> server.processJobs().list().isEmpty());
        assertEquals(404, send("GET", "/api/jobs/rules", null).statusCode());
        assertEquals("STOPPED", JSON.parseObject(Files.readString(home.resolve("run").resolve("rules.status.json")))
                .getString("state"));
    }

    private static String counts(String in, String out, String columns, String select) {
        return "CREATE TABLE s (k VARCHAR, v BIGINT) WITH (type = 'values', bounded = 'false', id = '" + in + "');\n"
                + "CREATE TABLE o (k VARCHAR, " + columns + ", PRIMARY KEY (k) NOT ENFORCED)"
                + " WITH (type = 'collect', id = '" + out + "');\n"
                + "INSERT INTO o SELECT k, " + select + " FROM s GROUP BY k;\n";
    }

    /** Per key the last count written. */
    private static Map<String, Long> latestCounts(String sink) {
        Map<String, Long> last = new java.util.TreeMap<>();
        CollectSinkFactory.rows(sink).forEach(r -> last.put((String) r.get(0), ((Number) r.get(1)).longValue()));
        return last;
    }

    private static void appendKeyed(String id, int from, int to) {
        ValuesSourceFactory.append(id, 0, java.util.stream.IntStream.range(from, to)
                .mapToObj(i -> "{\"k\":\"" + (i % 2 == 0 ? "a" : "b") + "\",\"v\":" + i + "}").toArray(String[]::new));
    }

    @Test
    void aNewVersionWhoseStateDoesNotFitLeavesThePreviousOneRunningFromItsCheckpoint() throws Exception {
        String in = source();
        String out = in + "-counts";
        write("counts", counts(in, out, "c BIGINT", "COUNT(*)"));
        Await.until("the job runs", WAIT, () -> server.processJobs().list().size() == 1);
        appendKeyed(in, 0, 10);
        Await.until(() -> "the first counts, have " + latestCounts(out), WAIT,
                () -> latestCounts(out).equals(Map.of("a", 5L, "b", 5L)));

        // a statement added: the new version resumes from the checkpoint of the old, its counts go on
        String copy = in + "-copy";
        long firstStarted = job("counts").getLongValue("started");
        write("counts", counts(in, out, "c BIGINT", "COUNT(*)") + "CREATE TABLE c (v BIGINT) WITH (type = 'collect',"
                + " id = '" + copy + "');\nINSERT INTO c SELECT v FROM s;\n");
        Await.until("the new version runs", WAIT, () -> {
            JSONObject j = job("counts");
            return j != null && j.getLongValue("started") != firstStarted && "RUNNING".equals(j.getString("state"));
        });
        appendKeyed(in, 10, 14);
        Await.until(() -> "the counts went on, have " + latestCounts(out), WAIT,
                () -> latestCounts(out).equals(Map.of("a", 7L, "b", 7L)));
        Await.until(() -> "the new statement's rows, have " + values(copy), WAIT,
                () -> values(copy).equals(List.of(10L, 11L, 12L, 13L)));

        // the aggregate changes: its state would not fit, so the previous version resumes
        write("counts", counts(in, out + "-2", "c BIGINT, total BIGINT", "COUNT(*), SUM(v)"));
        Await.until("the conflict reported", WAIT, () -> {
            JSONObject j = job("counts");
            return j != null && j.getString("scriptError") != null;
        });
        JSONObject status = job("counts");
        assertTrue(status.getString("scriptError").contains("bin/rsql reset counts"), status.toJSONString());
        Await.until("the previous version runs again", WAIT, () -> "RUNNING".equals(job("counts").getString("state")));
        appendKeyed(in, 14, 30);
        Await.until(() -> "the counts continued from the checkpoint, have " + latestCounts(out), WAIT,
                () -> latestCounts(out).equals(Map.of("a", 15L, "b", 15L)));
        assertTrue(CollectSinkFactory.rows(out + "-2").isEmpty(), "the new version did not run");
        String log = Files.readString(home.resolve("log").resolve("counts.log"));
        assertTrue(log.contains("the new version of jobs/counts.sql is not started")
                && log.contains("the previous version runs again"), log);
    }

    /** Fails on one value: a function's error ends its job. */
    public static class Fragile extends org.apache.flink.table.functions.ScalarFunction {
        public long eval(long v) {
            if (v == 13) {
                throw new IllegalArgumentException("unlucky " + v);
            }
            return v;
        }
    }

    @Test
    void aFailingJobLeavesTheOthersRunning() throws Exception {
        String inF = source();
        String inS = source();
        write("fragile", "CREATE FUNCTION fragile AS '" + Fragile.class.getName() + "';\n"
                + script(inF, inF + "-out", "SELECT fragile(v) FROM s"));
        write("steady", script(inS, inS + "-out", "SELECT v FROM s"));
        Await.until("both run", WAIT, () -> server.processJobs().list().size() == 2);
        append(inF, 10, 20);
        Await.until("the job failed", WAIT, () -> "FAILED".equals(job("fragile").getString("state")));
        assertTrue(job("fragile").getString("error").contains("unlucky 13"), job("fragile").toJSONString());
        append(inS, 0, 10);
        awaitValues(inS + "-out", 0, 10, 1);
        assertEquals("RUNNING", job("steady").getString("state"));
        Await.until("the failed job left the process's jobs", WAIT, () -> server.processJobs().list().size() == 1);
        String log = Files.readString(home.resolve("log").resolve("fragile.log"));
        assertTrue(log.contains("unlucky 13"), log);
        assertFalse(Files.readString(home.resolve("log").resolve("steady.log")).contains("unlucky"));
    }

    @Test
    void restApiAndCommandLineAgainstTheServer() throws Exception {
        String in = source();
        String out = in + "-out";
        HttpResponse<String> bad = send("PUT", "/api/jobs/api_job", script(in, out, "SELECT nope FROM s"));
        assertEquals(400, bad.statusCode());
        assertTrue(JSON.parseObject(bad.body()).getString("error").startsWith("line 3, column 22"), bad.body());
        assertFalse(Files.exists(home.resolve("jobs").resolve("api_job.sql")), "a refused script is not saved");

        HttpResponse<String> ok = send("PUT", "/api/jobs/api_job", script(in, out, "SELECT v + 1 FROM s"));
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals("RUNNING", JSON.parseObject(ok.body()).getString("state"));
        assertTrue(Files.exists(home.resolve("jobs").resolve("api_job.sql")));
        append(in, 0, 10);
        awaitValues(out, 1, 11, 1);
        JSONArray all = JSON.parseArray(send("GET", "/api/jobs", null).body());
        assertEquals(List.of("api_job"), all.stream().map(o -> ((JSONObject) o).getString("job"))
                .collect(Collectors.toList()));
        HttpResponse<String> explain = send("POST", "/api/explain", script(in, out, "SELECT v FROM s"));
        assertEquals(200, explain.statusCode());
        assertTrue(JSON.parseObject(explain.body()).getString("plan").contains("values"), explain.body());
        assertEquals(400, send("POST", "/api/explain", "SELECT").statusCode());
        assertEquals(404, send("GET", "/api/jobs/nothing", null).statusCode());
        assertEquals(405, send("DELETE", "/api/jobs", null).statusCode());

        HttpResponse<String> stopped = send("POST", "/api/jobs/api_job/stop", null);
        assertEquals(200, stopped.statusCode(), stopped.body());
        assertEquals("STOPPED", JSON.parseObject(stopped.body()).getString("state"));
        assertEquals(404, send("POST", "/api/jobs/api_job/stop", null).statusCode(), "not running any more");
        assertEquals(200, send("DELETE", "/api/jobs/api_job", null).statusCode());
        assertFalse(Files.exists(home.resolve("jobs").resolve("api_job.sql")));

        // the command line finds the server through run/server.json
        String in2 = source();
        Path script = home.resolve("cli_job.sql");
        Files.writeString(script, script(in2, in2 + "-out", "SELECT v * 5 FROM s"));
        assertEquals(0, cli("submit", script.toString()));
        append(in2, 0, 10);
        awaitValues(in2 + "-out", 0, 10, 5);
        String listed = cliOutput("list");
        assertTrue(listed.contains("cli_job") && listed.contains("RUNNING"), listed);
        Files.writeString(script, "INSERT INTO nowhere SELECT 1;\n");
        assertEquals(2, cli("submit", script.toString()), "an invalid script");
        assertEquals(0, cli("stop", "cli_job"));
        assertEquals(1, cli("stop", "cli_job"), "not running");
        assertEquals(0, cli("submit", "--help"));
        assertEquals(1, cli("list", "--server", "http://127.0.0.1:1"), "no server there");
    }

    private int cli(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--home";
        all[1] = home.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return RsqlCli.execute(all);
    }

    private String cliOutput(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, cli(args));
        } finally {
            System.setOut(old);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
