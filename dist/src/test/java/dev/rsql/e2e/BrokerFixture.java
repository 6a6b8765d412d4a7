package dev.rsql.e2e;

import dev.rsql.broker.LocalRocketMq;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * What the end-to-end tests on an in-process RocketMQ share: one name server and broker, a producer and a state
 * directory per test class.
 */
abstract class BrokerFixture {

    static LocalRocketMq broker;
    static DefaultMQProducer producer;
    static Path stateDir;

    @BeforeAll
    static void startBroker(@TempDir Path dir) throws Exception {
        broker = LocalRocketMq.start(dir.resolve("broker"));
        stateDir = dir.resolve("state");
        producer = new DefaultMQProducer("rsql_test_producer");
        producer.setNamesrvAddr(broker.nameServerAddress());
        producer.setInstanceName("rsql-test-" + UUID.randomUUID());
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

    /** The topic's queues, by queue id. */
    static List<MessageQueue> queues(String topic) throws Exception {
        return producer.fetchPublishMessageQueues(topic).stream()
                .sorted(Comparator.comparingInt(MessageQueue::getQueueId)).collect(Collectors.toList());
    }
}
