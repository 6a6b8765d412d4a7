package dev.rsql.cli;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.cli.http.HttpEndpoint;
import dev.rsql.cli.http.MetricsHandler;
import dev.rsql.cli.http.ProcessJobs;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /metrics} scraped while jobs run: counters that match the records processed, JVM metrics, valid text. */
class MetricsEndpointTest {

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** A line of the Prometheus text format 0.0.4: a comment (HELP, TYPE) or a sample with optional labels. */
    private static final Pattern COMMENT = Pattern.compile("# (HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*"
            + "|TYPE [a-zA-Z_:][a-zA-Z0-9_:]* (counter|gauge|summary|histogram|untyped))");
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{((?:[a-zA-Z_][a-zA-Z0-9_]*"
            + "=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\",?)*)})? (-?[0-9.eE+-]+|NaN|[+-]Inf)( -?[0-9]+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    @TempDir
    Path home;

    /** One sample: its name, labels and value. */
    private record Sample(String name, Map<String, String> labels, double value) {
    }

    /** Parses a scrape strictly: every line must be a comment or a sample. */
    private static List<Sample> parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("#")) {
                assertTrue(COMMENT.matcher(line).matches(), "not a HELP/TYPE line: " + line);
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            assertTrue(m.matches(), "not a sample line: " + line);
            Map<String, String> labels = new HashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4).replace("Inf", "Infinity"))));
        }
        return samples;
    }

    private static String scrape(int port) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + MetricsHandler.PATH)).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
        return r.body();
    }

    /** The sum of a metric's samples whose labels include {@code match}. */
    private static double sum(List<Sample> samples, String name, Map<String, String> match) {
        return samples.stream().filter(s -> s.name.equals(name)
                && s.labels.entrySet().containsAll(match.entrySet())).mapToDouble(Sample::value).sum();
    }

    private static boolean has(List<Sample> samples, String name) {
        return samples.stream().anyMatch(s -> s.name.equals(name));
    }

    @Test
    void countersMatchTheRecordsAFilterJobProcessedAndLateRowsAreCounted() throws Exception {
        Random random = new Random(1201);
        int n = 3000;
        List<String> lines = new ArrayList<>();
        int kept = 0;
        for (int i = 0; i < n; i++) {
            long v = random.nextInt(100_000);
            lines.add(i + "," + v);
            if (v % 7 == 0) {
                kept++;
            }
        }
        Path data = Files.write(home.resolve("numbers.csv"), lines);
        // event times a second apart, every 5th row 30 s back: late for its 10 s window unless that one is still open
        List<String> events = new ArrayList<>();
        long watermark = Long.MIN_VALUE;
        int late = 0;
        for (int i = 0; i < 400; i++) {
            long t = 1_700_000_000_000L + i * 1000L - (i % 5 == 4 ? 30_000 : 0);
            if (t - Math.floorMod(t, 10_000L) + 10_000 - 1 <= watermark) {
                late++;
            }
            watermark = Math.max(watermark, t);
            events.add("k" + (i % 3) + "," + TIMESTAMP.format(Instant.ofEpochMilli(t)));
        }
        assertTrue(late > 0);
        Path eventFile = Files.write(home.resolve("events.csv"), events);
        String filter = "CREATE TABLE numbers (id INT, v BIGINT) WITH ('connector' = 'file', 'path' = '" + data
                + "', 'format' = 'csv');\n"
                + "CREATE TABLE kept (id INT, v BIGINT) WITH ('connector' = 'blackhole');\n"
                + "INSERT INTO kept SELECT id, v FROM numbers WHERE v % 7 = 0;\n";
        String windows = "CREATE TABLE ev (k VARCHAR, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)"
                + " WITH ('connector' = 'file', 'path' = '" + eventFile + "', 'format' = 'csv');\n"
                + "CREATE TABLE counts (k VARCHAR, c BIGINT) WITH ('connector' = 'blackhole');\n"
                + "INSERT INTO counts SELECT k, COUNT(*) FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts),"
                + " INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end;\n";
        Options config = new Options(Map.of("state.dir", home.resolve("state").toString(), "worker.threads", "2",
                "checkpoint.interval", "100ms"));
        ProcessJobs jobs = new ProcessJobs();
        try (HttpEndpoint http = HttpEndpoint.bind("127.0.0.1", 0)) {
            http.handle(MetricsHandler.PATH, new MetricsHandler(jobs)).start();
            for (Map.Entry<String, String> job : Map.of("filtered", filter, "windowed", windows).entrySet()) {
                JobInstance j = new JobInstance(new ScriptPlanner(new PlannerContext(config,
                        getClass().getClassLoader(), x -> null)).plan(job.getKey(), job.getValue()).graph(),
                        new EngineContext(config, getClass().getClassLoader()));
                jobs.add(job.getKey(), j);
                j.start();
                assertTrue(j.awaitTermination(Duration.ofSeconds(30)));
                assertEquals(JobInstance.State.FINISHED, j.state(), String.valueOf(j.failure()));
            }
            List<Sample> s = parse(scrape(http.port()));
            Map<String, String> filtered = Map.of("job", "filtered");
            assertEquals(n, sum(s, "rsql_task_records_in_total", filtered));
            assertEquals(kept, sum(s, "rsql_task_records_out_total", filtered));
            assertEquals(kept, sum(s, "rsql_task_sink_rows_total", filtered));
            assertEquals(n, sum(s, "rsql_operator_records_out_total", Map.of("job", "filtered", "kind", "Source")));
            assertEquals(n, sum(s, "rsql_operator_records_in_total", Map.of("job", "filtered", "kind", "Calc")));
            assertEquals(kept, sum(s, "rsql_operator_records_out_total", Map.of("job", "filtered", "kind", "Calc")));
            assertEquals(kept, sum(s, "rsql_operator_records_in_total", Map.of("job", "filtered", "kind", "Sink")));
            assertEquals(0, sum(s, "rsql_task_late_records_total", filtered));
            assertEquals(0, sum(s, "rsql_task_records_dropped_total", filtered));
            assertEquals(0, sum(s, "rsql_task_running", filtered));
            assertTrue(sum(s, "rsql_task_busy_seconds_total", filtered) > 0);

            Map<String, String> windowed = Map.of("job", "windowed");
            assertEquals(400, sum(s, "rsql_task_records_in_total", Map.of("job", "windowed", "queue",
                    "file " + eventFile)), "records in, of the source task");
            assertEquals(late, sum(s, "rsql_task_late_records_total", windowed));
            assertEquals(400, sum(s, "rsql_job_records_in_total", windowed), "the source's records, once");
            assertEquals(n, sum(s, "rsql_job_records_in_total", filtered));
            assertEquals(kept, sum(s, "rsql_job_sink_rows_total", filtered));
            assertEquals(late, sum(s, "rsql_operator_late_records_total", Map.of("job", "windowed",
                    "kind", "WindowAggregate")));
            assertEquals(List.of("aborted", "completed"), s.stream()
                    .filter(x -> x.name.equals("rsql_job_checkpoints_total") && x.labels.get("job").equals("windowed"))
                    .map(x -> x.labels.get("result")).sorted().toList());

            for (String jvm : List.of("jvm_memory_used_bytes", "jvm_gc_collection_seconds_count", "jvm_threads_current",
                    "process_cpu_seconds_total")) {
                assertTrue(has(s, jvm), jvm + " missing");
            }
        }
    }

    @Test
    void rsqlRunServesMetricsOnHttpPortWhileTheJobRunsAndStatusHasThem() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path script = Files.writeString(home.resolve("gen.sql"),
                "CREATE TABLE gen (id INT, v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100',"
                        + " 'number-of-rows' = '400', 'seed' = '3');\n"
                        + "CREATE TABLE sink (id INT, v BIGINT) WITH ('connector' = 'blackhole');\n"
                        + "INSERT INTO sink SELECT id, v FROM gen WHERE v > 0;\n");
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> RsqlCli.execute("--home",
                home.toString(), "run", script.toString(), "-D", "http.port=" + port));
        List<Double> seen = new ArrayList<>();
        Await.until(() -> "records in rising across scrapes: " + seen, Duration.ofSeconds(30), () -> {
            try {
                double in = sum(parse(scrape(port)), "rsql_task_records_in_total", Map.of("job", "gen"));
                seen.add(in);
                return seen.size() >= 2 && in > seen.get(0) && in > 0;
            } catch (IOException | InterruptedException e) {
                return false;   // not listening yet
            }
        });
        assertEquals(0, run.get(60, TimeUnit.SECONDS));
        assertThrows(ConnectException.class, () -> scrape(port), "the endpoint closes with the job");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream old = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, RsqlCli.execute("--home", home.toString(), "status", "--json"));
        } finally {
            System.setOut(old);
        }
        JSONArray statuses = JSON.parseArray(out.toString(StandardCharsets.UTF_8).lines().reduce((a, b) -> b)
                .orElseThrow());
        JSONObject job = statuses.getJSONObject(0);
        assertEquals(400, job.getLongValue("recordsIn"));
        JSONObject task = job.getJSONArray("tasks").getJSONObject(0);
        assertTrue(task.getLongValue("busyMillis") >= 0 && task.containsKey("busyRatio"), task.toString());
        JSONArray operators = task.getJSONArray("operators");
        long sinkIn = 0;
        long calcOut = -1;
        for (int i = 0; i < operators.size(); i++) {
            JSONObject o = operators.getJSONObject(i);
            if (o.getString("kind").equals("Sink")) {
                sinkIn = o.getLongValue("recordsIn");
            } else if (o.getString("kind").equals("Calc")) {
                calcOut = o.getLongValue("recordsOut");
            }
        }
        assertEquals(calcOut, sinkIn, operators.toString());
        assertEquals(sinkIn, task.getLongValue("recordsOut"));
    }
}
