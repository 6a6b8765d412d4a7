package dev.rsql.planner;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The http sink against a real local HTTP server (the JDK's): rows delivered one by one and in batches with their
 * headers, a target failing with 500s for a while (retried: nothing lost, repeats only under the same idempotency
 * key), one refusing rows with 400 (dead-lettered, the rest delivered), and the mistakes reported at check.
 */
class HttpSinkSqlTest {

    private HttpServer server;
    /** Every request the server saw: its body, idempotency key and Authorization header, and the status answered. */
    private final List<String[]> requests = Collections.synchronizedList(new ArrayList<>());
    private volatile Function<String, Integer> answer = body -> 200;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hook", this::handle);
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        int status = answer.apply(body);
        requests.add(new String[]{body, ex.getRequestHeaders().getFirst("Idempotency-Key"),
                ex.getRequestHeaders().getFirst("Authorization"), String.valueOf(status),
                ex.getRequestHeaders().getFirst("X-Team")});
        byte[] reply = (status == 200 ? "ok" : "rejected: amount must be positive").getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, reply.length);
        ex.getResponseBody().write(reply);
        ex.close();
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook?token=abc";
    }

    /** A values source of n alerts: id, user (Chinese), amount (every seventh negative). */
    private static String alerts(int n) {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add("{\"id\":" + i + ",\"user\":\"用户" + i + "\",\"amount\":" + (i % 7 == 3 ? -i : i * 10) + "}");
        }
        String id = "alerts-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, rows);
        return "CREATE TABLE alerts (id BIGINT, `user` STRING, amount INT) WITH (type = 'values', id = '" + id + "');\n";
    }

    private String hook(String name, String more) {
        return "CREATE TABLE " + name + " (id BIGINT, `user` STRING, amount INT) WITH ('connector' = 'http', 'url' = '"
                + url() + "', 'headers.Authorization' = 'Bearer s3cr3t-token', 'headers.X-Team' = 'risk-team',"
                + " 'sink.retry.initial-backoff' = '5 ms'" + more + ");\n";
    }

    /** The delivered rows' ids, from single-row and batch bodies of 2xx requests. */
    private Set<Long> delivered() {
        Set<Long> ids = new TreeSet<>();
        for (String[] r : requests) {
            if (r[3].equals("200")) {
                Object parsed = JSON.parse(r[0]);
                for (Object o : parsed instanceof JSONArray a ? a : List.of(parsed)) {
                    ids.add(((JSONObject) o).getLong("id"));
                }
            }
        }
        return ids;
    }

    private static Set<Long> range(int n) {
        Set<Long> ids = new TreeSet<>();
        for (long i = 0; i < n; i++) {
            ids.add(i);
        }
        return ids;
    }

    @Test
    void rowsArriveOneByOneAndInBatchesWithTheirHeaders() throws Exception {
        TestJob.run(alerts(40) + hook("single", ", 'sink.idempotency-key.column' = 'id'")
                + hook("batched", ", 'sink.batch.max-rows' = '8'")
                + "INSERT INTO single SELECT * FROM alerts WHERE id < 20;\n"
                + "INSERT INTO batched SELECT * FROM alerts WHERE id >= 20;\n");
        assertEquals(range(40), delivered());
        long batches = requests.stream().filter(r -> r[0].startsWith("[")).count();
        assertTrue(batches >= 3 && batches <= 10, "the 20 rows of 'batched' go in arrays of up to 8: " + batches);
        for (String[] r : requests) {
            assertEquals("Bearer s3cr3t-token", r[2]);
            assertEquals("risk-team", r[4]);
            if (!r[0].startsWith("[")) {
                assertEquals(String.valueOf(JSON.parseObject(r[0]).getLong("id")), r[1], "the id column is the key");
                assertTrue(r[0].contains("\"user\":\"用户"), r[0]);
            } else {
                assertEquals(32, r[1].length(), "a batch's key is a hash of its body");
            }
        }
    }

    /** 500s for a while: every row arrives; a row sent twice carries the same key both times. */
    @Test
    void aTargetFailingForAWhileLosesNothing() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        answer = body -> calls.incrementAndGet() % 3 == 0 ? 200 : 503;
        TestJob.run(alerts(30) + hook("hook", ", 'sink.max-retries' = '10'") + "INSERT INTO hook SELECT * FROM alerts;\n");
        assertEquals(range(30), delivered());
        assertTrue(requests.size() > 60, "retried: " + requests.size());
        Set<String> keysOk = new HashSet<>();
        for (String[] r : requests) {
            if (r[3].equals("200")) {
                assertTrue(keysOk.add(r[1]), "each row is taken once");
            }
        }
        for (String[] r : requests) {
            assertTrue(keysOk.contains(r[1]), "a failed request was sent again with the same key");
        }
    }

    /** 400 for bad rows: those go to the dead-letter file with the answer, the others arrive, the job finishes. */
    @Test
    void refusedRowsAreDeadLettered(@TempDir Path dir) throws Exception {
        answer = body -> JSON.parseObject(body).getIntValue("amount") < 0 ? 400 : 200;
        Path dlq = dir.resolve("dead").resolve("hook.jsonl");
        TestJob.run(alerts(50) + hook("hook", ", 'sink.dead-letter-path' = '" + dlq + "'")
                + "INSERT INTO hook SELECT * FROM alerts;\n");
        Set<Long> refused = new TreeSet<>();
        for (long i = 0; i < 50; i++) {
            if (i % 7 == 3) {
                refused.add(i);
            }
        }
        Set<Long> accepted = range(50);
        accepted.removeAll(refused);
        assertEquals(accepted, delivered());
        List<String> letters = Files.readAllLines(dlq, StandardCharsets.UTF_8);
        Set<Long> dead = new TreeSet<>();
        for (String l : letters) {
            JSONObject letter = JSON.parseObject(l);
            assertEquals(400, letter.getIntValue("status"));
            assertEquals("hook", letter.getString("table"));
            assertTrue(letter.getString("response").contains("amount must be positive"), l);
            assertFalse(letter.getString("target").contains("token=abc"), "no query string: " + l);
            dead.add(JSON.parseObject(letter.getString("body")).getLong("id"));
        }
        assertEquals(refused, dead);
    }

    /** Without a dead-letter file a refused row fails the job, saying what to set; the credentials are not shown. */
    @Test
    void withoutADeadLetterFileARefusedRowFailsTheJob() {
        answer = body -> 400;
        AssertionError e = assertThrows(AssertionError.class, () -> TestJob.run(alerts(3) + hook("hook", "")
                + "INSERT INTO hook SELECT * FROM alerts;\n"));
        String m = e.getMessage();
        assertTrue(m.contains("the target answered 400") && m.contains("sink.dead-letter-path"), m);
        assertFalse(m.contains("s3cr3t") || m.contains("token=abc"), m);
        assertEquals(1, requests.size(), "a 400 is not retried");
    }

    /** CloudEvents over HTTP: structured (the event as JSON) and binary (ce- headers, the data as the body). */
    @Test
    void cloudEventsInBothModes() throws Exception {
        List<Headers> seen = Collections.synchronizedList(new ArrayList<>());
        List<String> bodies = Collections.synchronizedList(new ArrayList<>());
        server.createContext("/ce", ex -> {
            seen.add(ex.getRequestHeaders());
            bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        String ceUrl = "http://127.0.0.1:" + server.getAddress().getPort() + "/ce";
        String columns = "(id STRING, subject STRING, data ROW<`user` STRING, amount INT>) WITH ('connector' = 'http',"
                + " 'url' = '" + ceUrl + "', 'format' = 'cloudevents', 'cloudevents.default-source' = '/rsql',"
                + " 'cloudevents.default-type' = 'alert'";
        TestJob.run(alerts(4) + "CREATE TABLE binary_ce " + columns + ", 'cloudevents.mode' = 'binary');\n"
                + "INSERT INTO binary_ce SELECT CAST(id AS STRING), `user`, ROW(`user`, amount) FROM alerts;\n");
        assertEquals(4, seen.size());
        for (int i = 0; i < 4; i++) {
            Headers h = seen.get(i);
            JSONObject data = JSON.parseObject(bodies.get(i));
            String id = h.getFirst("ce-id");
            assertEquals("1.0", h.getFirst("ce-specversion"));
            assertEquals("/rsql", h.getFirst("ce-source"));
            assertEquals("alert", h.getFirst("ce-type"));
            assertEquals("application/json", h.getFirst("Content-Type"));
            assertEquals(id, h.getFirst("Idempotency-Key"), "the event's id is the key");
            assertEquals("%E7%94%A8%E6%88%B7" + id, h.getFirst("ce-subject"), "percent-encoded UTF-8");
            assertEquals("用户" + id, data.getString("user"));
        }
        seen.clear();
        bodies.clear();
        TestJob.run(alerts(2) + "CREATE TABLE structured_ce " + columns + ");\n"
                + "INSERT INTO structured_ce SELECT CAST(id AS STRING), `user`, ROW(`user`, amount) FROM alerts;\n");
        assertEquals(2, seen.size());
        assertEquals("application/cloudevents+json", seen.get(0).getFirst("Content-Type"));
        JSONObject event = JSON.parseObject(bodies.get(0));
        assertEquals("1.0", event.getString("specversion"));
        assertTrue(event.getJSONObject("data").getString("user").startsWith("用户"), bodies.get(0));
    }

    @Test
    void mistakesFailAtCheck() {
        String gen = "CREATE TABLE g (id BIGINT, `user` STRING, amount INT) WITH ('connector' = 'datagen');\n";
        for (String[] c : new String[][]{
                {"'url' = 'ftp://x/y'", "must be an http:// or https:// URL"},
                {"'url' = 'http://x/y', 'method' = 'GET'", "option 'method' must be POST or PUT"},
                {"'url' = 'http://x/y', 'sink.idempotency-key.column' = 'nope'", "names no column: 'nope'"},
                {"'url' = 'http://x/y', 'headers.X-Team' = '风控'", "has characters an HTTP header cannot carry"},
                {"'url' = 'http://x/y', 'format' = 'cloudevents', 'cloudevents.mode' = 'binary',"
                        + " 'sink.batch.max-rows' = '10', 'cloudevents.default-source' = 's',"
                        + " 'cloudevents.default-type' = 't'", "binary mode go one per request"}}) {
            PlanningException e = assertThrows(PlanningException.class, () -> new ScriptPlanner(
                    PlannerContext.defaults()).plan("t", gen + "CREATE TABLE h (id BIGINT, `user` STRING, amount INT)"
                    + " WITH ('connector' = 'http', " + c[0] + ");\nINSERT INTO h SELECT * FROM g;"));
            assertTrue(e.getMessage().contains(c[1]), e.getMessage());
        }
    }
}
