package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport;
import dev.rsql.runtime.rocketmq.RocketMqNames;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.broker;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.namesrv;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(RocketMqTestSupport.class)
class TopicProvisionerTest {

    private static final Pattern LEGAL = Pattern.compile("[%|a-zA-Z0-9_-]+");

    @Test
    void createsTopicsWithTheDeclaredQueueCountsAndFindsThemAgain() throws Exception {
        String three = ShuffleTopic.topicName(unique("job"), "ex3");
        String five = ShuffleTopic.topicName(unique("job"), "ex5");
        ShuffleTopic created;
        try (TopicProvisioner provisioner = new TopicProvisioner(namesrv())) {
            created = provisioner.provision(three, 3);
            assertEquals(5, provisioner.provision(five, 5).queueCount());
            assertEquals(queues(created), queues(provisioner.provision(three, 3)), "provisioning again");
        }
        assertEquals(3, created.queueCount());
        for (int i = 0; i < 3; i++) {
            assertEquals(new MessageQueue(three, broker().brokerName(), i), created.queue(i));
            assertEquals(i, created.indexOf(created.queue(i)));
        }
        TopicConfig config = broker().brokerController().getTopicConfigManager().selectTopicConfig(three);
        assertEquals(3, config.getReadQueueNums());
        assertEquals(3, config.getWriteQueueNums());
        // Another process starting the same job.
        try (TopicProvisioner other = new TopicProvisioner(namesrv())) {
            assertEquals(queues(created), queues(other.provision(three, 3)));
        }
    }

    @Test
    void aTopicWithAnotherQueueCountIsAnError() throws Exception {
        String topic = ShuffleTopic.topicName(unique("job"), "ex");
        broker().createTopic(topic, 4);
        try (TopicProvisioner provisioner = new TopicProvisioner(namesrv())) {
            ConfigException e = assertThrows(ConfigException.class, () -> provisioner.provision(topic, 8));
            assertTrue(e.getMessage().contains("exists with 4 write and 4 read queues, but 8 are declared"),
                    e.getMessage());
        }
        assertEquals(4, broker().brokerController().getTopicConfigManager().selectTopicConfig(topic)
                .getWriteQueueNums(), "left as it was");
    }

    @Test
    void namesAreLegalAndKeepDifferentJobsApart() {
        assertEquals("rsql_orders_ab12_shuffle", ShuffleTopic.topicName("orders", "ab12"));
        assertEquals("rsql_orders_ab12", ShuffleTopic.consumerGroup("orders", "ab12"));
        String dotted = ShuffleTopic.topicName("daily.orders", "ab12");
        String spaced = ShuffleTopic.topicName("daily orders", "ab12");
        assertTrue(LEGAL.matcher(dotted).matches(), dotted);
        assertNotEquals(dotted, spaced);
        String longName = ShuffleTopic.topicName("j".repeat(300), "ab12");
        assertTrue(LEGAL.matcher(longName).matches() && longName.length() == RocketMqNames.MAX_TOPIC_LENGTH,
                longName);
        assertNotEquals(longName, ShuffleTopic.topicName("j".repeat(300), "ab13"));
    }

    private static List<MessageQueue> queues(ShuffleTopic topic) {
        List<MessageQueue> queues = new ArrayList<>();
        for (int i = 0; i < topic.queueCount(); i++) {
            queues.add(topic.queue(i));
        }
        return queues;
    }
}
