package dev.rsql.cli.web;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.cli.http.HttpEndpoint;
import dev.rsql.cli.http.ProcessJobs;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.graph.GraphNode;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The status page of a running job, served by the process's HTTP endpoint: its JSON over plain HTTP, and the page
 * itself in headless Chromium (Debian's package {@code chromium}), which must show the job running, its counters
 * rising and its operator graph drawn, without a console error.
 */
class StatusPageTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final String JOB = "clicks/per_user";
    /**
     * An unbounded, slow source, so the job keeps running, through a keyed aggregation (an exchange) into a sink; and a
     * file with a bad record its table skips.
     */
    private static final String SCRIPT = """
            CREATE TABLE clicks (user_id INT, url STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '200',
              'fields.user_id.min' = '1', 'fields.user_id.max' = '20', 'seed' = '7');
            CREATE TABLE per_user (user_id INT, clicks BIGINT, PRIMARY KEY (user_id) NOT ENFORCED)
              WITH ('connector' = 'blackhole');
            INSERT INTO per_user SELECT user_id, COUNT(*) FROM clicks WHERE url IS NOT NULL GROUP BY user_id;
            CREATE TABLE users (id INT, name STRING) WITH ('connector' = 'file', 'path' = '%s', 'format' = 'json',
              'scan.error-policy' = 'skip');
            CREATE TABLE names (id INT, name STRING) WITH ('connector' = 'blackhole');
            INSERT INTO names SELECT id, name FROM users;
            """;

    @TempDir
    Path dir;

    private Job job;
    private HttpEndpoint http;
    private StatusPage page;

    @BeforeEach
    void startJobAndPage() throws Exception {
        Options config = new Options(Map.of("checkpoint.interval", "300ms", "worker.threads", "2",
                "state.dir", dir.resolve("state").toString()));
        Path users = dir.resolve("users.jsonl");
        Files.writeString(users, "{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2 \"name\": \"b\"}\n");
        ClassLoader loader = StatusPageTest.class.getClassLoader();
        JobGraph graph = new ScriptPlanner(new PlannerContext(config, loader, n -> null)).plan(JOB, SCRIPT.formatted(users))
                .graph();
        job = Job.create(graph, new EngineContext(config, loader));
        ProcessJobs jobs = new ProcessJobs();
        jobs.add(JOB, job);
        http = HttpEndpoint.bind("127.0.0.1", 0);
        page = new StatusPage(jobs, Duration.ofMillis(200)).registerOn(http);
        http.start();
        job.start();
    }

    @AfterEach
    void stop() {
        job.stop();
        job.awaitTermination(TIMEOUT);
        http.close();
        page.close();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + http.port() + path;
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url(path))).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theJsonHasTheJobItsTasksGraphAndHistory() throws Exception {
        AtomicReference<JSONObject> seen = new AtomicReference<>();
        Await.until(() -> "a sample and a checkpoint in " + seen.get(), TIMEOUT, () -> {
            JSONObject j = jobJson();
            seen.set(j);
            return j != null && j.getJSONObject("history").getJSONArray("t").size() >= 2
                    && j.getJSONObject("checkpoints").getLongValue("last") > 0;
        });
        JSONObject j = seen.get();
        assertEquals("RUNNING", j.getString("state"));
        JSONObject stats = j.getJSONObject("checkpoints").getJSONObject("stats");
        assertTrue(stats.getLongValue("completed") >= 1 && stats.getLongValue("lastSizeBytes") > 0, stats.toString());
        JSONArray nodes = j.getJSONObject("graph").getJSONArray("nodes");
        assertEquals(job.graph().nodes().size(), nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            GraphNode n = job.graph().nodes().get(i);
            assertEquals(n.id(), nodes.getJSONObject(i).getString("id"));
            assertEquals(n.inputs().stream().map(GraphNode::id).collect(Collectors.toList()),
                    nodes.getJSONObject(i).getJSONArray("inputs").toList(String.class));
        }
        // every task is placed on the graph node it starts at
        Set<String> ids = job.graph().nodes().stream().map(GraphNode::id).collect(Collectors.toSet());
        JSONArray tasks = j.getJSONArray("tasks");
        assertTrue(!tasks.isEmpty(), j.toJSONString());
        for (int i = 0; i < tasks.size(); i++) {
            assertTrue(ids.contains(tasks.getJSONObject(i).getString("node")), tasks.getJSONObject(i).toJSONString());
        }
        JSONObject history = j.getJSONObject("history");
        for (String series : List.of("inPerSecond", "outPerSecond", "lag")) {
            assertEquals(history.getJSONArray("t").size(), history.getJSONArray(series).size(), series);
        }
        assertEquals(200, get("/ui/status.js").statusCode());
        assertEquals(404, get("/ui/../pom.xml").statusCode());
        assertEquals(404, get("/nothing-here").statusCode());
    }

    private JSONObject jobJson() {
        try {
            HttpResponse<String> r = get("/ui/api/jobs");
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
            JSONArray jobs = JSON.parseObject(r.body()).getJSONArray("jobs");
            return jobs.isEmpty() ? null : jobs.getJSONObject(0);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theBrowserShowsTheRunningJobRisingCountersAndTheGraphWithoutErrors() throws Exception {
        try (HeadlessChromium chromium = HeadlessChromium.launch(dir.resolve("chromium"))) {
            chromium.open(url("/"));
            String section = "document.querySelector('section.job[data-job=\"" + JOB + "\"]')";
            awaitValue(chromium, "the job shown as running", section + "?.querySelector('h2 .state')?.textContent",
                    "RUNNING");
            long first = recordsIn(chromium, section);
            Await.until(() -> "records read to rise past " + first + " on the page", TIMEOUT,
                    () -> recordsIn(chromium, section) > first);

            // the graph: one SVG group per operator, one path per edge
            JobGraph graph = job.graph();
            Set<String> drawn = new TreeSet<>(strings(chromium, "[..." + section
                    + ".querySelectorAll('svg.operator-graph g.op')].map(g => g.dataset.node)"));
            assertEquals(graph.nodes().stream().map(GraphNode::id).collect(Collectors.toCollection(TreeSet::new)), drawn);
            Set<String> edges = new TreeSet<>(strings(chromium, "[..." + section
                    + ".querySelectorAll('svg.operator-graph path.edge')].map(p => p.dataset.from + '>' + p.dataset.to)"));
            Set<String> expected = new TreeSet<>();
            graph.nodes().forEach(n -> n.inputs().forEach(in -> expected.add(in.id() + ">" + n.id())));
            assertEquals(expected, edges);

            // the throughput chart has a line, the tasks table a row per task
            awaitValue(chromium, "a throughput line", section + ".querySelectorAll('polyline.series-in').length > 0", true);
            awaitValue(chromium, "the last checkpoint's duration and size", section
                    + ".querySelector('.checkpoint-stats')?.textContent.includes(' bytes; state on disk ')", true);
            awaitValue(chromium, "the task rows", section + ".querySelectorAll('tr[data-task]').length === "
                    + job.status().tasks.size(), true);
            // the bad record of the file, among the recent events
            awaitValue(chromium, "the skipped record reported", section
                    + ".querySelector('.events .kind-skipped')?.parentElement.textContent.includes('users#')", true);
            assertEquals(List.of(), chromium.problems());

            // and the browser does report what the page would do wrong
            chromium.evaluate("console.error('probe one'); setTimeout(() => { throw new Error('probe two'); }, 0)");
            for (String probe : List.of("probe one", "probe two")) {
                Await.until(() -> probe + " among " + chromium.problems(), TIMEOUT,
                        () -> chromium.problems().stream().anyMatch(p -> p.contains(probe)));
            }
        }
    }

    private static void awaitValue(HeadlessChromium chromium, String what, String expression, Object expected) {
        AtomicReference<Object> last = new AtomicReference<>();
        Await.until(() -> what + " (" + expression + " is " + last.get() + "; problems: " + chromium.problems() + ")",
                TIMEOUT, () -> {
                    last.set(evaluate(chromium, expression));
                    return expected.equals(last.get());
                });
    }

    private static long recordsIn(HeadlessChromium chromium, String section) {
        Object text = evaluate(chromium, section + "?.querySelector('[data-field=recordsRead]')?.textContent");
        String digits = text == null ? "" : text.toString().replaceAll("[^0-9]", "");
        return digits.isEmpty() ? -1 : Long.parseLong(digits);
    }

    private static List<String> strings(HeadlessChromium chromium, String expression) {
        return ((JSONArray) evaluate(chromium, expression)).toList(String.class);
    }

    private static Object evaluate(HeadlessChromium chromium, String expression) {
        try {
            return chromium.evaluate(expression);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
