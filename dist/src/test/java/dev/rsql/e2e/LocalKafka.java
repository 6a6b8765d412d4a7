package dev.rsql.e2e;

import dev.rsql.runtime.testing.Await;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A single-node Kafka (one combined KRaft controller and broker) started in this JVM from the Maven Central
 * artifacts, listening on free localhost ports; data under the given directory.
 */
final class LocalKafka implements AutoCloseable {

    private final KafkaClusterTestKit cluster;
    private final Admin admin;

    private LocalKafka(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
    }

    static LocalKafka start(Path dir) throws Exception {
        KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                .setBaseDirectory(dir).setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
                // A group's first member gets its partitions at once, not after the default 3 s.
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("offsets.topic.num.partitions", "2")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("num.partitions", "1")
                .build();
        try {
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return new LocalKafka(cluster);
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
    }

    String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    Admin admin() {
        return admin;
    }

    /**
     * Creates a topic; returns once every partition has a leader (a produce request that reaches a partition before
     * its leader is ready is retried, and a busy machine can then leave an idempotent producer retrying for long).
     */
    void createTopic(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        Await.until("leaders of topic " + topic, Duration.ofSeconds(30), () -> {
            try {
                TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
                return d.partitions().size() == partitions && d.partitions().stream().allMatch(p -> p.leader() != null
                        && !p.leader().isEmpty());
            } catch (Exception e) {
                return false;
            }
        });
    }

    /** Reads every partition of a topic from the start until {@code expected} records arrived, then a little more. */
    List<ConsumerRecord<byte[], byte[]>> readUntil(String topic, int expected) {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
            c.assign(parts);
            c.seekToBeginning(parts);
            List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (all.size() < expected && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(100)).forEach(all::add);
            }
            // Anything beyond the expected count is a duplicate: read a little longer to see it.
            long settle = System.nanoTime() + Duration.ofMillis(500).toNanos();
            while (System.nanoTime() < settle) {
                c.poll(Duration.ofMillis(100)).forEach(all::add);
            }
            return all;
        }
    }

    @Override
    public void close() throws Exception {
        admin.close();
        cluster.close();
    }
}
