package dev.rsql.sdk;

import dev.rsql.broker.LocalRocketMq;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One distributed job submitted to two engines in this JVM (as two applications would run it) against an in-process
 * RocketMQ: they share the source and shuffle queues, and together give the exact counts.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RsqlEngineDistributedTest {

    private static final int QUEUES = 4;
    private static final int KEYS = 25;
    private static final int EVENTS = 3_000;

    @Test
    void twoEnginesShareOneDistributedJob(@TempDir Path dir) throws Exception {
        String topic = "sdk_in_" + UUID.randomUUID().toString().substring(0, 8);
        String sink = topic + "-counts";
        try (LocalRocketMq broker = LocalRocketMq.start(dir.resolve("broker"))) {
            broker.createTopic(topic, QUEUES);
            String script = "CREATE TABLE ev (k VARCHAR, v BIGINT) WITH (type = 'rocketmq', topic = '" + topic + "');\n"
                    + "CREATE TABLE counts (k VARCHAR, c BIGINT, s BIGINT, PRIMARY KEY (k) NOT ENFORCED)"
                    + " WITH (type = 'collect', id = '" + sink + "');\n"
                    + "INSERT INTO counts SELECT k, COUNT(*), SUM(v) FROM ev GROUP BY k;\n";
            try (RsqlEngine a = engine(broker, dir, "a"); RsqlEngine b = engine(broker, dir, "b")) {
                RsqlJob ja = a.submit("counts", script);
                RsqlJob jb = b.submit("counts", script);
                Await.until("both engines own source queues", Duration.ofSeconds(60),
                        () -> sources(ja) > 0 && sources(jb) > 0 && sources(ja) + sources(jb) == QUEUES);

                Map<String, long[]> expected = new TreeMap<>();
                DefaultMQProducer producer = new DefaultMQProducer("sdk_test_producer");
                producer.setNamesrvAddr(broker.nameServerAddress());
                producer.setInstanceName("sdk-test-" + UUID.randomUUID());
                producer.start();
                try {
                    List<MessageQueue> queues = producer.fetchPublishMessageQueues(topic).stream()
                            .sorted(Comparator.comparingInt(MessageQueue::getQueueId)).collect(Collectors.toList());
                    Random random = new Random(15);
                    Map<Integer, List<Message>> byQueue = new HashMap<>();
                    for (int i = 0; i < EVENTS; i++) {
                        String k = "k" + random.nextInt(KEYS);
                        long v = random.nextInt(1000);
                        expected.computeIfAbsent(k, x -> new long[2])[0]++;
                        expected.get(k)[1] += v;
                        byQueue.computeIfAbsent(i % QUEUES, q -> new ArrayList<>()).add(new Message(topic,
                                ("{\"k\":\"" + k + "\",\"v\":" + v + "}").getBytes(StandardCharsets.UTF_8)));
                    }
                    for (Map.Entry<Integer, List<Message>> e : byQueue.entrySet()) {
                        List<Message> batch = e.getValue();
                        for (int i = 0; i < batch.size(); i += 200) {
                            producer.send(batch.subList(i, Math.min(batch.size(), i + 200)), queues.get(e.getKey()));
                        }
                    }
                } finally {
                    producer.shutdown();
                }
                Map<String, String> want = new TreeMap<>();
                expected.forEach((k, cs) -> want.put(k, cs[0] + "/" + cs[1]));
                Await.until(() -> "the exact counts, have " + latest(sink), Duration.ofSeconds(60),
                        () -> latest(sink).equals(want));
                assertTrue(ja.metrics().recordsIn() > 0 && jb.metrics().recordsIn() > 0,
                        "both engines read: " + ja.metrics().recordsIn() + " and " + jb.metrics().recordsIn());
                assertEquals(RsqlJob.State.RUNNING, ja.state());
                assertEquals(RsqlJob.State.RUNNING, jb.state());
            }
        }
    }

    private static RsqlEngine engine(LocalRocketMq broker, Path dir, String instance) {
        return RsqlEngine.builder().settings(Map.of("rocketmq.namesrv", broker.nameServerAddress(),
                "execution.mode", "distributed", "instance.id", instance, "state.dir", dir.resolve("state").toString(),
                "checkpoint.interval", "300ms", "worker.threads", "2", "shuffle.queues", "4")).build();
    }

    private static long sources(RsqlJob job) {
        return job.status().tasks().stream().filter(t -> t.state().equals("RUNNING") && t.id().startsWith("ev#"))
                .count();
    }

    /** Per key the last count/sum written (one task writes a key: its rows are in order). */
    private static Map<String, String> latest(String sink) {
        Map<String, String> last = new TreeMap<>();
        for (Row r : CollectSinkFactory.rows(sink)) {
            String k = (String) r.get(0);
            if (r.kind() == RowKind.DELETE || r.kind() == RowKind.UPDATE_BEFORE) {
                last.remove(k);
            } else {
                last.put(k, r.get(1) + "/" + r.get(2));
            }
        }
        return last;
    }
}
