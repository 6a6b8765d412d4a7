package dev.rsql.e2e;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

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

    /** Creates a topic; returns once the broker has it. */
    void createTopic(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    }

    @Override
    public void close() throws Exception {
        admin.close();
        cluster.close();
    }
}
