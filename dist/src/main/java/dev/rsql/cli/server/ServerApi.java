package dev.rsql.cli.server;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.rsql.sdk.ScriptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * The server's REST API under {@code /api} (JSON in and out; errors as {@code {"error": "..."}} with a 4xx status):
 * <ul>
 *   <li>{@code GET /api/jobs}: every job of the server (as {@code rsql status --json} shows each, plus {@code script}
 *   and {@code scriptError});</li>
 *   <li>{@code GET /api/jobs/NAME}: one job (404 if unknown);</li>
 *   <li>{@code PUT} or {@code POST /api/jobs/NAME}, the script as body: checked (400 with the error and its position
 *   if it fails), written to {@code jobs/NAME.sql} and started (or restarted) at once; 409 when it cannot start;</li>
 *   <li>{@code POST /api/jobs/NAME/stop}: stops the job gracefully, its script stays (404 if it does not run);</li>
 *   <li>{@code DELETE /api/jobs/NAME}: removes the script, which stops the job (404 if unknown);</li>
 *   <li>{@code POST /api/explain?name=NAME}, the script as body: its plan as {@code {"plan": "..."}} (400 if
 *   invalid).</li>
 * </ul>
 */
final class ServerApi implements HttpHandler {

    static final String PREFIX = "/api";
    private static final Logger LOG = LoggerFactory.getLogger(ServerApi.class);
    private static final String JOBS = PREFIX + "/jobs";

    private final JobServer server;

    ServerApi(JobServer server) {
        this.server = server;
    }

    @Override
    public void handle(HttpExchange x) throws IOException {
        try {
            route(x);
        } catch (ScriptException | IllegalArgumentException e) {
            reply(x, 400, error(e.getMessage()));
        } catch (RuntimeException e) {
            LOG.warn("{} {} failed: {}", x.getRequestMethod(), x.getRequestURI(), e.toString());
            reply(x, 500, error(String.valueOf(e.getMessage())));
        } finally {
            x.close();
        }
    }

    private void route(HttpExchange x) throws IOException {
        String path = x.getRequestURI().getPath();
        String method = x.getRequestMethod();
        if (path.equals(PREFIX + "/explain")) {
            if (!method.equals("POST")) {
                reply(x, 405, error("use POST " + path + " with the script as body"));
                return;
            }
            String name = queryParameter(x, "name");
            JSONObject o = new JSONObject();
            o.put("plan", server.explain(name == null ? "explain" : name, body(x)));
            reply(x, 200, o);
            return;
        }
        if (path.equals(JOBS) || path.equals(JOBS + "/")) {
            if (!method.equals("GET")) {
                reply(x, 405, error("use GET " + JOBS + ", or PUT " + JOBS + "/NAME with the script as body"));
                return;
            }
            reply(x, 200, server.list());
            return;
        }
        if (!path.startsWith(JOBS + "/")) {
            reply(x, 404, error("no such resource: " + path + " (try " + JOBS + ")"));
            return;
        }
        String name = path.substring(JOBS.length() + 1);
        if (method.equals("POST") && name.endsWith("/stop")) {
            String job = name.substring(0, name.length() - "/stop".length());
            JSONObject stopped = server.stop(job);
            reply(x, stopped == null ? 404 : 200, stopped == null ? error("no job " + job + " runs here") : stopped);
            return;
        }
        switch (method) {
            case "GET": {
                JSONObject s = server.status(name);
                reply(x, s == null ? 404 : 200, s == null ? error("no job " + name) : s);
                return;
            }
            case "PUT":
            case "POST": {
                JSONObject s = server.submit(name, body(x));
                boolean started = s.getString("scriptError") == null;
                reply(x, started ? 200 : 409, started ? s : error(s.getString("scriptError"), s));
                return;
            }
            case "DELETE": {
                JSONObject s = server.remove(name);
                reply(x, s == null ? 404 : 200, s == null ? error("no job " + name) : s);
                return;
            }
            default:
                reply(x, 405, error("method " + method + " is not allowed on " + path));
        }
    }

    private static String body(HttpExchange x) throws IOException {
        return new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static String queryParameter(HttpExchange x, String key) {
        String q = x.getRequestURI().getRawQuery();
        if (q == null) {
            return null;
        }
        for (String pair : q.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(key)) {
                return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static JSONObject error(String message) {
        JSONObject o = new JSONObject();
        o.put("error", message);
        return o;
    }

    private static JSONObject error(String message, JSONObject job) {
        JSONObject o = error(message);
        o.put("job", job);
        return o;
    }

    private static void reply(HttpExchange x, int status, Object body) throws IOException {
        byte[] bytes = JSON.toJSONString(body).getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        x.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(bytes);
        }
    }
}
