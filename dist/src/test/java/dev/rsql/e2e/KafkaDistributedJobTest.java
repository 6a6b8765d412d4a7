package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.broker.LocalRocketMq;
import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.testing.Await;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A distributed job ({@code execution.mode = distributed}: shuffle and state on RocketMQ) reading a Kafka topic, as
 * two instances in this JVM: the partitions are divided between them through the Kafka consumer group, and when one
 * instance leaves, the other takes its partitions (from the offsets committed with the checkpoints) and its keyed
 * state.
 */
class KafkaDistributedJobTest {

    static final int PARTITIONS = 6;
    static final int KEYS = 30;
    static final long BASE_TS = 1_700_000_000_000L;
    static final DateTimeFormatter SQL_TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);
    static LocalRocketMq rocketMq;
    static LocalKafka kafka;
    static KafkaProducer<String, String> producer;
    static Path stateDir;

    @BeforeAll
    static void startBrokers(@TempDir Path dir) throws Exception {
        rocketMq = LocalRocketMq.start(dir.resolve("rocketmq"));
        kafka = LocalKafka.start(dir.resolve("kafka"));
        stateDir = dir.resolve("state");
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(), new StringSerializer());
    }

    @AfterAll
    static void stopBrokers() throws Exception {
        if (producer != null) {
            producer.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (rocketMq != null) {
            rocketMq.close();
        }
    }

    static Job start(String name, String script, String instance) throws Exception {
        return DistributedJobFixture.start(rocketMq.nameServerAddress(), stateDir, name, script, instance);
    }

    static long sourceTasks(Job job) {
        return DistributedJobFixture.ownedTasks(job, "ev#");
    }

    /** Event i: key i mod KEYS into partition i mod PARTITIONS, 10 ms after event i-1: each partition's times rise. */
    static void produce(String topic, int from, int to) {
        for (int i = from; i < to; i++) {
            producer.send(new ProducerRecord<>(topic, i % PARTITIONS, null,
                    "{\"k\":\"k" + (i % KEYS) + "\",\"ts\":" + (BASE_TS + 10L * i) + "}"));
        }
        producer.flush();
    }

    @Test
    void twoInstancesShareThePartitionsAndOneTakesOverTheOthers() throws Exception {
        String in = "kdist_in";
        String out = "kdist_windows";
        kafka.createTopic(in, PARTITIONS);
        kafka.createTopic(out, 2);
        String boot = kafka.bootstrapServers();
        String script = "CREATE TABLE ev (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS withOffset(ts, 500))\n"
                + " WITH ('connector' = 'kafka', 'topic' = '" + in + "', 'properties.bootstrap.servers' = '" + boot
                + "');\n"
                + "CREATE TABLE wc (k STRING, ws TIMESTAMP(3), c BIGINT)\n"
                + " WITH ('connector' = 'kafka', 'topic' = '" + out + "', 'properties.bootstrap.servers' = '" + boot
                + "', 'key.format' = 'json', 'key.fields' = 'k');\n"
                + "INSERT INTO wc SELECT k, window_start, COUNT(*)\n"
                + " FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND))\n"
                + " WHERE k <> 'end' GROUP BY k, window_start, window_end;\n";
        int total = 12_000;
        int firstPart = 5_000;
        produce(in, 0, firstPart);
        Map<String, Long> expected = new TreeMap<>();
        for (int i = 0; i < total; i++) {
            long ts = BASE_TS + 10L * i;
            expected.merge("k" + (i % KEYS) + "@" + SQL_TIMESTAMP.format(Instant.ofEpochMilli(ts - ts % 2000)), 1L,
                    Long::sum);
        }

        Job a = start("kafka_dist", script, "a");
        Job b = start("kafka_dist", script, "b");
        try {
            Await.until("both instances own partitions", Duration.ofSeconds(60),
                    () -> sourceTasks(a) > 0 && sourceTasks(b) > 0 && sourceTasks(a) + sourceTasks(b) == PARTITIONS);
            Await.until("the first windows", Duration.ofSeconds(60), () -> !kafka.readUntil(out, 1).isEmpty());
            b.stop();
            assertEquals(JobInstance.State.STOPPED, b.state());
            Await.until("a owns every partition", Duration.ofSeconds(60), () -> sourceTasks(a) == PARTITIONS);
            produce(in, firstPart, total);
            for (int p = 0; p < PARTITIONS; p++) {
                producer.send(new ProducerRecord<>(in, p, null, "{\"k\":\"end\",\"ts\":" + (BASE_TS + 10L * total
                        + 3_600_000L) + "}"));
            }
            producer.flush();
            Map<String, Set<Long>> got = new TreeMap<>();
            Await.until(() -> "every window; missing e.g. " + expected.keySet().stream()
                    .filter(w -> !got.containsKey(w)).limit(5).toList(), Duration.ofSeconds(90), () -> {
                got.clear();
                for (ConsumerRecord<byte[], byte[]> r : kafka.readUntil(out, expected.size())) {
                    JSONObject v = JSON.parseObject(new String(r.value(), StandardCharsets.UTF_8));
                    got.computeIfAbsent(v.getString("k") + "@" + v.getString("ws"), w -> new HashSet<>())
                            .add(v.getLongValue("c"));
                }
                return got.keySet().containsAll(expected.keySet());
            });
            // At least once: a window may be written again after its task moved, but always with the full count.
            expected.forEach((w, c) -> assertEquals(Set.of(c), got.get(w), "count of window " + w));
            assertEquals(expected.keySet(), got.keySet());
            assertEquals(JobInstance.State.RUNNING, a.state());
        } finally {
            a.stop();
            b.stop();
        }
    }
}
