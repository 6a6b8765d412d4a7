package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
