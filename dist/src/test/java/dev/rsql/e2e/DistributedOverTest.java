package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.broker.LocalRocketMq;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.exec.TaskStatus;
import dev.rsql.runtime.testing.Await;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OVER aggregations distributed over two instances: rows reach the over tasks through the shuffle by the partition
 * key; when one instance leaves, the other restores the moved tasks' accumulators, frames and pending rows, so the
 * counts go on where they were. Every row comes out once, with the counts of its place in its key's time order.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DistributedOverTest {

    private static final int QUEUES = 8;
    private static final int KEYS = 40;
    private static final long BASE_TS = 1_700_000_000_000L;

    private static LocalRocketMq broker;
    private static DefaultMQProducer producer;
    private static Path stateDir;

    @BeforeAll
    static void startBroker(@TempDir Path dir) throws Exception {
        broker = LocalRocketMq.start(dir.resolve("broker"));
        stateDir = dir.resolve("state");
        producer = new DefaultMQProducer("rsql_dist_over_test_producer");
        producer.setNamesrvAddr(broker.nameServerAddress());
        producer.setInstanceName("rsql-dist-over-test-" + UUID.randomUUID());
        producer.start();
    }

    @AfterAll
    static void stopBroker() {
        if (producer != null) {
            producer.shutdown();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static Job start(String name, String script, String instance) throws Exception {
        Map<String, String> settings = new HashMap<>();
        settings.put("rocketmq.namesrv", broker.nameServerAddress());
        settings.put("checkpoint.interval", "300ms");
        settings.put("worker.threads", "2");
        settings.put("instance.id", instance);
        settings.put("state.dir", stateDir.toString());
        settings.put("execution.mode", "distributed");
        settings.put("shuffle.queues", "4");
        settings.put("source.idle-timeout", "0");
        Options config = new Options(settings);
        Job job = Job.create(new ScriptPlanner(new PlannerContext(config, DistributedOverTest.class.getClassLoader(),
                n -> null)).plan(name, script).graph(), new EngineContext(config,
                DistributedOverTest.class.getClassLoader()));
        job.start();
        return job;
    }

    /** Event i: key i mod KEYS into queue i mod QUEUES, 10 ms after event i-1: each queue's times only rise. */
    private static void produce(List<MessageQueue> queues, int from, int to) throws Exception {
        Map<Integer, List<Message>> byQueue = new TreeMap<>();
        for (int i = from; i < to; i++) {
            String event = "{\"k\":\"k" + (i % KEYS) + "\",\"ts\":" + (BASE_TS + 10L * i) + "}";
            byQueue.computeIfAbsent(i % QUEUES, q -> new ArrayList<>())
                    .add(new Message(queues.get(0).getTopic(), event.getBytes(StandardCharsets.UTF_8)));
        }
        for (Map.Entry<Integer, List<Message>> e : byQueue.entrySet()) {
            producer.send(e.getValue(), queues.get(e.getKey()));
        }
    }

    /** Adds the rows the reader has now, by "key@time", each with its counts. */
    private static void read(DefaultLitePullConsumer reader, Map<String, List<String>> into) {
        for (List<MessageExt> batch = reader.poll(50); !batch.isEmpty(); batch = reader.poll(50)) {
            for (MessageExt m : batch) {
                JSONObject row = JSON.parseObject(new String(m.getBody(), StandardCharsets.UTF_8));
                if (!"sentinel".equals(row.getString("k"))) {
                    into.computeIfAbsent(row.getString("k") + "@" + row.getString("ts"), x -> new ArrayList<>())
                            .add(row.getLong("c") + "/" + row.getLong("r"));
                }
            }
        }
    }

    @Test
    void twoInstancesComputeOverWindowsAndAMovedTaskKeepsItsWindows() throws Exception {
        String in = "dist_over_" + UUID.randomUUID().toString().substring(0, 8);
        String out = in + "_out";
        broker.createTopic(in, QUEUES);
        broker.createTopic(out, 4);
        String script = "CREATE TABLE ev (k VARCHAR, ts TIMESTAMP(3), WATERMARK FOR ts AS withOffset(ts, 500))\n"
                + " WITH (type = 'rocketmq', topic = '" + in + "');\n"
                + "CREATE TABLE oc (k VARCHAR, ts TIMESTAMP(3), c BIGINT, r BIGINT)\n"
                + " WITH (type = 'rocketmq', topic = '" + out + "');\n"
                + "INSERT INTO oc SELECT k, ts,\n"
                + "  COUNT(*) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),\n"
                + "  COUNT(*) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '1' SECOND PRECEDING AND"
                + " CURRENT ROW)\n FROM ev;\n";
        List<MessageQueue> queues = producer.fetchPublishMessageQueues(in).stream()
                .sorted(Comparator.comparingInt(MessageQueue::getQueueId)).collect(Collectors.toList());
        int total = 4_000;
        int firstPart = 1_500;
        produce(queues, 0, firstPart);
        String jobName = "dist_" + in;
        Job a = start(jobName, script, "a");
        Job b = start(jobName, script, "b");
        DefaultLitePullConsumer reader = TopicReaders.fromStart(broker.nameServerAddress(), out);
        Map<String, List<String>> rows = new TreeMap<>();
        try {
            Await.until("the first rows", Duration.ofSeconds(60), () -> {
                read(reader, rows);
                return rows.size() >= firstPart / 2 && b.status().tasks.stream()
                        .anyMatch(t -> t.state == TaskStatus.State.RUNNING && t.id.startsWith("exchange"));
            });
            b.stop();
            produce(queues, firstPart, total);
            // An hour later in every queue: the watermark passes every event above.
            for (MessageQueue q : queues) {
                producer.send(new Message(in, ("{\"k\":\"sentinel\",\"ts\":" + (BASE_TS + 10L * total + 3_600_000L)
                        + "}").getBytes(StandardCharsets.UTF_8)), q);
            }
            Map<String, String> expected = new TreeMap<>();
            for (int i = 0; i < total; i++) {
                // A key's events are 400 ms apart: the last second holds the event and up to two before it.
                int place = i / KEYS;
                expected.put("k" + (i % KEYS) + "@" + DistributedJobTest.SQL_TIMESTAMP.format(
                        Instant.ofEpochMilli(BASE_TS + 10L * i)), (place + 1) + "/" + Math.min(place + 1, 3));
            }
            Await.until(() -> "every row; have " + rows.size() + " of " + total, Duration.ofSeconds(90), () -> {
                read(reader, rows);
                return rows.keySet().containsAll(expected.keySet());
            });
            List<String> wrong = new ArrayList<>();
            expected.forEach((row, counts) -> {
                if (!rows.get(row).equals(List.of(counts))) {
                    wrong.add(row + " expected " + counts + " got " + rows.get(row));
                }
            });
            assertTrue(wrong.isEmpty(), wrong.size() + " rows wrong or repeated: "
                    + wrong.subList(0, Math.min(10, wrong.size())));
        } finally {
            reader.shutdown();
            a.stop();
            b.stop();
        }
    }
}
