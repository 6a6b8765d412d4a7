package dev.rsql.cli.web;

import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import com.sun.net.httpserver.HttpExchange;
import dev.rsql.cli.http.HttpEndpoint;
import dev.rsql.cli.http.ProcessJobs;
import dev.rsql.runtime.exec.Job;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The status page of the process's HTTP endpoint: {@code /} is the page, {@code /ui/<file>} its scripts and styles
 * (from the jar, nothing from the internet), {@code /ui/api/jobs} the JSON it polls: every job of {@link ProcessJobs}
 * with its tasks, operator graph and the last minutes sampled by {@link StatusHistory}.
 */
public final class StatusPage implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatusPage.class);
    /** Every few seconds for ten minutes: the charts' range. */
    public static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(2);
    public static final Duration WINDOW = Duration.ofMinutes(10);
    private static final String RESOURCES = "dev/rsql/cli/web/";
    private static final Pattern ASSET = Pattern.compile("[a-z][a-z0-9-]*\\.(html|js|css)");
    private static final Map<String, String> CONTENT_TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8");

    private final ProcessJobs jobs;
    private final StatusHistory history;

    public StatusPage(ProcessJobs jobs) {
        this(jobs, SAMPLE_INTERVAL);
    }

    /** @param sampleInterval how often the charts get a point (tests sample faster) */
    public StatusPage(ProcessJobs jobs, Duration sampleInterval) {
        this.jobs = jobs;
        this.history = new StatusHistory(jobs, sampleInterval, WINDOW);
    }

    /** Registers {@code /} and {@code /ui/} on the endpoint and starts sampling. */
    public StatusPage registerOn(HttpEndpoint endpoint) {
        endpoint.handle("/", this::page);
        endpoint.handle("/ui/", this::ui);
        history.start();
        return this;
    }

    private void page(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (path.equals("/") || path.equals("/index.html")) {
            asset(exchange, "index.html");
        } else {
            send(exchange, 404, "text/plain; charset=utf-8", ("no page " + path + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    private void ui(HttpExchange exchange) throws IOException {
        String name = exchange.getRequestURI().getPath().substring("/ui/".length());
        if (name.equals("api/jobs")) {
            byte[] body;
            try {
                body = jobsJson().toJSONString().getBytes(StandardCharsets.UTF_8);
            } catch (RuntimeException e) {
                LOG.warn("status page: reading the jobs' status failed", e);
                send(exchange, 500, "text/plain; charset=utf-8", (e + "\n").getBytes(StandardCharsets.UTF_8));
                return;
            }
            send(exchange, 200, "application/json; charset=utf-8", body);
        } else if (ASSET.matcher(name).matches()) {
            asset(exchange, name);
        } else {
            send(exchange, 404, "text/plain; charset=utf-8", ("no file /ui/" + name + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    JSONObject jobsJson() {
        JSONArray list = new JSONArray();
        for (Map.Entry<String, Job> e : jobs.list()) {
            Job job = e.getValue();
            list.add(StatusJson.job(e.getKey(), job, job.status(), history.of(e.getKey())));
        }
        JSONObject o = new JSONObject();
        o.put("now", System.currentTimeMillis());
        o.put("jobs", list);
        return o;
    }

    private void asset(HttpExchange exchange, String name) throws IOException {
        byte[] body;
        try (InputStream in = StatusPage.class.getClassLoader().getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                send(exchange, 404, "text/plain; charset=utf-8", ("no file " + name + "\n").getBytes(StandardCharsets.UTF_8));
                return;
            }
            body = in.readAllBytes();
        }
        send(exchange, 200, CONTENT_TYPES.get(name.substring(name.lastIndexOf('.') + 1)), body);
    }

    private static void send(HttpExchange exchange, int code, String contentType, byte[] body) {
        try {
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            HttpEndpoint.sendReadOnly(exchange, code, contentType, body);
        } catch (IOException e) {
            LOG.debug("status page: answering {} failed: {}", exchange.getRequestURI(), e.toString());
        }
    }

    @Override
    public void close() {
        history.close();
    }
}
