package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import com.sun.net.httpserver.HttpServer;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.planner.rulefile.RuleFileScript;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.testing.Await;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SQL jobs end to end on a real RocketMQ 5.3.3 name server and broker started in this JVM. */
class RocketMqSqlJobTest extends BrokerFixture {

    static final AtomicInteger SEQ = new AtomicInteger();

    static String topic(String base, int queues) {
        String t = base + "_" + SEQ.incrementAndGet();
        broker.createTopic(t, queues);
        return t;
    }

    static JobInstance start(String name, String script) throws Exception {
        Options config = new Options(Map.of("rocketmq.namesrv", broker.nameServerAddress(), "checkpoint.interval", "200ms",
                "worker.threads", "2", "instance.id", "it-" + UUID.randomUUID(), "state.dir", stateDir.toString()));
        JobInstance job = new JobInstance(new ScriptPlanner(new PlannerContext(config,
                RocketMqSqlJobTest.class.getClassLoader(), n -> null)).plan(name, script).graph(),
                new EngineContext(config, RocketMqSqlJobTest.class.getClassLoader()));
        job.start();
        return job;
    }

    static void produce(String topic, List<String> bodies, String tag, java.util.function.Function<Integer, String> key)
            throws Exception {
        List<Message> batch = new ArrayList<>();
        for (int i = 0; i < bodies.size(); i++) {
            Message m = new Message(topic, tag, bodies.get(i).getBytes(StandardCharsets.UTF_8));
            if (key != null) {
                m.setKeys(key.apply(i));
            }
            batch.add(m);
            if (batch.size() == 200 || i == bodies.size() - 1) {
                producer.send(batch);
                batch.clear();
            }
        }
    }

    /** Reads a topic from the beginning until {@code expected} messages arrived (or fails after a timeout). */
    static List<MessageExt> readUntil(String topic, int expected, Duration timeout) throws Exception {
        DefaultLitePullConsumer c = TopicReaders.fromStart(broker.nameServerAddress(), topic);
        try {
            List<MessageExt> all = new ArrayList<>();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (all.size() < expected && System.nanoTime() < deadline) {
                all.addAll(c.poll(200));
            }
            // Anything beyond the expected count is a duplicate: drain a little longer to see it.
            long settle = System.nanoTime() + Duration.ofMillis(500).toNanos();
            while (System.nanoTime() < settle) {
                all.addAll(c.poll(100));
            }
            return all;
        } finally {
            c.shutdown();
        }
    }

    static Map<String, Integer> multiset(Collection<String> rows) {
        Map<String, Integer> m = new TreeMap<>();
        rows.forEach(r -> m.merge(r, 1, Integer::sum));
        return m;
    }

    static String order(int i) {
        String status = i % 5 == 0 ? "CANCELLED" : "PAID";
        return "{\"order_id\":" + i + ",\"customer\":\"c" + (i % 37) + "\",\"amount\":" + (i % 300) + ".5,\"status\":\""
                + status + "\"}";
    }

    /** The job's output for order i, or null when it filters the order out. */
    static String expected(int i) {
        if (i % 5 == 0 || i % 300 <= 100) {
            return null;
        }
        return "{\"order_id\":" + i + ",\"customer\":\"c" + (i % 37) + "\",\"total\":" + (2 * (i % 300) + 1) + ".0}";
    }

    static List<String> bodies(List<MessageExt> messages) {
        return messages.stream().map(m -> JSON.parseObject(new String(m.getBody(), StandardCharsets.UTF_8)).toJSONString())
                .collect(Collectors.toList());
    }

    @Test
    void filterProjectionJobLosesNothingAcrossStopAndRestart() throws Exception {
        String in = topic("orders", 4);
        String out = topic("big_orders", 4);
        String script = "CREATE TABLE orders (order_id BIGINT, customer STRING, amount DOUBLE, status STRING)\n"
                + " WITH ('connector' = 'rocketmq', 'topic' = '" + in + "');\n"
                + "CREATE TABLE big_orders (order_id BIGINT, customer STRING, total DOUBLE)\n"
                + " WITH ('connector' = 'rocketmq', 'topic' = '" + out + "');\n"
                + "INSERT INTO big_orders SELECT order_id, customer, amount * 2 FROM orders\n"
                + " WHERE status <> 'CANCELLED' AND amount > 100;\n";
        List<String> first = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            first.add(order(i));
        }
        produce(in, first, "o", null);
        List<String> expectedRows = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            if (expected(i) != null) {
                expectedRows.add(expected(i));
            }
        }

        JobInstance job = start("orders_filter", script);
        List<MessageExt> written = readUntil(out, expectedRows.size(), Duration.ofSeconds(90));
        assertEquals(multiset(expectedRows), multiset(bodies(written)), "first 10,000 orders");
        job.stop();
        assertEquals(JobInstance.State.STOPPED, job.state());

        List<String> more = new ArrayList<>();
        for (int i = 10_000; i < 12_000; i++) {
            more.add(order(i));
            if (expected(i) != null) {
                expectedRows.add(expected(i));
            }
        }
        produce(in, more, "o", null);
        JobInstance restarted = start("orders_filter", script);
        try {
            written = readUntil(out, expectedRows.size(), Duration.ofSeconds(90));
            Map<String, Integer> got = multiset(bodies(written));
            for (String row : expectedRows) {
                assertTrue(got.containsKey(row), "missing after restart: " + row);
            }
            assertEquals(expectedRows.size(), written.size(), "a graceful stop commits everything: no duplicates");
            assertEquals(multiset(expectedRows), got);
        } finally {
            restarted.stop();
        }
    }

    /** Each changelog format read from a topic, written to another, read again: the same table. */
    @Test
    void changelogFormatsRoundTrip() throws Exception {
        Map<Long, String> expected = ChangelogRoundTrip.expectedTable();
        for (String format : ChangelogRoundTrip.FORMATS) {
            String in = topic("cdc_in", 1);
            String mid = topic("cdc_mid", 1);
            produce(in, ChangelogRoundTrip.messages(format), "cdc", null);
            String id = "mq_" + in;
            JobInstance job = start("cdc_" + in, ChangelogRoundTrip.script(format,
                    (t, more) -> " WITH ('connector' = 'rocketmq', 'topic' = '" + t + "'" + more + ")", in, mid, id));
            try {
                ChangelogRoundTrip.awaitTable(id, expected);
            } finally {
                job.stop();
            }
        }
    }

    /** CloudEvents in structured mode read, filtered, written as new events and read again; bad ones dead-lettered. */
    @Test
    void cloudEventsRoundTrip() throws Exception {
        String in = topic("ce_in", 2);
        String out = topic("ce_out", 2);
        produce(in, CloudEventsRoundTrip.events(), "ce", null);
        String id = "ce_" + in;
        JobInstance job = start("ce_" + in, CloudEventsRoundTrip.script(
                (t, more) -> " WITH ('connector' = 'rocketmq', 'topic' = '" + t + "'" + more + ")", in, out, id));
        try {
            CloudEventsRoundTrip.check(id);
        } finally {
            job.stop();
        }
    }

    /**
     * A rule file end to end: a RocketMQ bus, three rules, a RocketMQ target and an HTTP target that answers 500 to
     * two requests in three and 400 to events with a negative amount. Every selected event reaches each of its
     * targets, the refused ones are dead-lettered, and a request the target saw twice carries the same key.
     */
    @Test
    void ruleFileWithRocketMqAndHttpTargets(@TempDir Path dir) throws Exception {
        String bus = topic("rule_bus", 2);
        String audit = topic("rule_audit", 2);
        List<String> events = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            events.add("{\"specversion\":\"1.0\",\"id\":\"ev-" + i + "\",\"source\":\"/shop/" + (i % 2 == 0 ? "web" : "app")
                    + "\",\"type\":\"order." + (i % 3 == 0 ? "refunded" : "paid") + "\",\"data\":{\"amount\":"
                    + (i % 17 == 5 ? -i : i * 50) + ",\"city\":\"杭州\"}}");
        }
        produce(bus, events, "ev", null);
        List<String[]> requests = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger calls = new AtomicInteger();
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/hook", ex -> {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            int status = body.contains("\"amount\":-") ? 400 : calls.incrementAndGet() % 3 == 0 ? 200 : 500;
            requests.add(new String[]{body, ex.getRequestHeaders().getFirst("Idempotency-Key"), String.valueOf(status)});
            ex.sendResponseHeaders(status, -1);
            ex.close();
        });
        http.start();
        Path deadLetters = dir.resolve("dead.jsonl");
        String rules = "bus: {connector: rocketmq, topic: " + bus + "}\n"
                + "targets:\n"
                + "  audit: {connector: rocketmq, topic: " + audit + "}\n"
                + "  hook: {connector: http, url: 'http://127.0.0.1:" + http.getAddress().getPort() + "/hook',"
                + " sink.retry.initial-backoff: 5 ms, sink.max-retries: 20, sink.dead-letter-path: '" + deadLetters + "'}\n"
                + "rules:\n"
                + "  - name: refunds\n"
                + "    pattern: {type: [order.refunded]}\n"
                + "    transform: {template: 'refund ${id}', variables: {id: $.id}}\n"
                + "    targets: [audit]\n"
                + "  - name: app payments\n"
                + "    pattern: {type: [order.paid], source: [{suffix: /app}]}\n"
                + "    transform: {path: $.data}\n"
                + "    targets: [hook, audit]\n";
        JobInstance job = start("rules_" + bus, RuleFileScript.sql("shop.rules.yaml", rules));
        try {
            List<String> refunds = new ArrayList<>();
            List<String> appPaid = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String data = "{\"amount\":" + (i % 17 == 5 ? -i : i * 50) + ",\"city\":\"杭州\"}";
                if (i % 3 == 0) {
                    refunds.add("refund ev-" + i);
                } else if (i % 2 == 1) {
                    appPaid.add(data);
                }
            }
            List<String> auditExpected = new ArrayList<>(refunds);
            auditExpected.addAll(appPaid);
            List<MessageExt> written = readUntil(audit, auditExpected.size(), Duration.ofSeconds(90));
            assertEquals(multiset(auditExpected), multiset(written.stream()
                    .map(m -> new String(m.getBody(), StandardCharsets.UTF_8)).collect(Collectors.toList())));
            List<String> refused = appPaid.stream().filter(d -> d.contains(":-")).toList();
            List<String> accepted = appPaid.stream().filter(d -> !d.contains(":-")).toList();
            Await.until("the hook took " + accepted.size() + " events",
                    Duration.ofSeconds(90), () -> requests.stream().filter(r -> r[2].equals("200")).count()
                            >= accepted.size() && Files.exists(deadLetters) && lines(deadLetters) >= refused.size());
            assertEquals(multiset(accepted), multiset(requests.stream().filter(r -> r[2].equals("200"))
                    .map(r -> r[0]).collect(Collectors.toList())), "each accepted event taken once");
            Set<String> keysTaken = requests.stream().filter(r -> r[2].equals("200")).map(r -> r[1])
                    .collect(Collectors.toSet());
            assertTrue(requests.stream().filter(r -> r[2].equals("500")).allMatch(r -> keysTaken.contains(r[1])),
                    "a request failed with 500 was sent again with the same key");
            assertEquals(refused.size(), lines(deadLetters));
        } finally {
            job.stop();
            http.stop(0);
        }
    }

    private static long lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8).size();
        } catch (IOException e) {
            return 0;
        }
    }

    @Test
    void fileJobWritesToRocketMq(@TempDir Path dir) throws Exception {
        String out = topic("file_out", 2);
        Path input = dir.resolve("orders.jsonl");
        List<String> lines = new ArrayList<>();
        List<String> expectedRows = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            lines.add(order(i));
            if (expected(i) != null) {
                expectedRows.add(expected(i));
            }
        }
        Files.write(input, lines);
        JobInstance job = start("file_to_mq",
                "CREATE TABLE orders (order_id BIGINT, customer VARCHAR, amount DOUBLE, status VARCHAR)\n"
                        + " WITH (type = 'file', filePath = '" + input + "');\n"
                        + "CREATE TABLE big_orders (order_id BIGINT, customer VARCHAR, total DOUBLE)\n"
                        + " WITH (type = 'rocketmq', topic = '" + out + "');\n"
                        + "INSERT INTO big_orders SELECT order_id, customer, amount * 2 FROM orders\n"
                        + " WHERE status <> 'CANCELLED' AND amount > 100;\n");
        assertTrue(job.awaitTermination(Duration.ofSeconds(60)), "a file job finishes by itself");
        assertEquals(JobInstance.State.FINISHED, job.state());
        List<MessageExt> written = readUntil(out, expectedRows.size(), Duration.ofSeconds(30));
        assertEquals(multiset(expectedRows), multiset(bodies(written)));
    }

    @Test
    void blinkSourceDdlAndFlinkSinkDdlInOneJob() throws Exception {
        String in = topic("logins", 4);
        String out = topic("alerts", 4);
        List<String> events = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            events.add("{\"uid\":" + i + ",\"user_name\":\"u" + (i % 10) + "\",\"ok\":" + (i % 3 != 0) + "}");
        }
        produce(in, events.subList(0, 500), "web", i -> "k" + i);
        produce(in, events.subList(500, 1000), "app", i -> "k" + (i + 500));
        String script = "-- Blink source, Flink sink\n"
                + "CREATE TABLE logins (\n"
                + "  uid BIGINT, user_name VARCHAR, ok BOOLEAN,\n"
                + "  __tag__ VARCHAR HEADER,\n"
                + "  keys VARCHAR HEADER\n"
                + ") WITH (type = 'mq', topic = '" + in + "', tag = 'web', consumerGroup = 'blink_group_" + SEQ.incrementAndGet()
                + "', startupMode = 'EARLIEST');\n"
                + "CREATE TEMPORARY TABLE IF NOT EXISTS alerts (\n"
                + "  uid BIGINT, user_name STRING, src STRING,\n"
                + "  k STRING METADATA FROM 'keys',\n"
                + "  PRIMARY KEY (uid) NOT ENFORCED\n"
                + ") WITH ('connector' = 'rocketmq', 'topic' = '" + out + "', 'sink.tag-column' = 'src');\n"
                + "INSERT INTO alerts SELECT uid, user_name, __tag__, keys FROM logins WHERE NOT ok;\n";
        JobInstance job = start("blink_flink", script);
        try {
            int expectedCount = (int) java.util.stream.IntStream.range(0, 500).filter(i -> i % 3 == 0).count();
            List<MessageExt> written = readUntil(out, expectedCount, Duration.ofSeconds(60));
            assertEquals(expectedCount, written.size());
            Map<Long, MessageExt> byUid = new HashMap<>();
            for (MessageExt m : written) {
                JSONObject row = JSON.parseObject(new String(m.getBody(), StandardCharsets.UTF_8));
                byUid.put(row.getLong("uid"), m);
                assertEquals("web", row.getString("src"));
            }
            MessageExt m = byUid.get(3L);
            assertEquals("k3", m.getKeys());
            assertEquals("web", m.getTags());
        } finally {
            job.stop();
        }
    }
}
