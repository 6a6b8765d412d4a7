package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.rocketmq.RocketMqNames;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The topic an exchange's rows travel through between stages, and its queues: shuffle queue {@code i} is the
 * {@code i}-th of the route's queues ordered by broker name and queue id, the same in every process.
 */
public final class ShuffleTopic {

    private final String name;
    private final List<MessageQueue> queues;

    ShuffleTopic(String name, List<MessageQueue> queues) {
        if (queues.isEmpty()) {
            throw new IllegalArgumentException("shuffle topic " + name + " has no queue");
        }
        this.name = name;
        this.queues = List.copyOf(queues);
    }

    /** The topic of exchange {@code exchangeId} of job {@code job}: {@code rsql_<job>_<exchange id>_shuffle}. */
    public static String topicName(String job, String exchangeId) {
        return RocketMqNames.distinct("rsql_" + job + "_" + exchangeId + "_shuffle", RocketMqNames.MAX_TOPIC_LENGTH);
    }

    /** The consumer group reading it: {@code rsql_<job>_<exchange id>}. */
    public static String consumerGroup(String job, String exchangeId) {
        return RocketMqNames.distinct("rsql_" + job + "_" + exchangeId, RocketMqNames.MAX_GROUP_LENGTH);
    }

    /** The topic's queues as the route lists them. */
    static ShuffleTopic fromRoute(String name, TopicRouteData route) {
        List<QueueData> brokers = new ArrayList<>(route.getQueueDatas());
        brokers.sort(Comparator.comparing(QueueData::getBrokerName));
        List<MessageQueue> queues = new ArrayList<>();
        for (QueueData q : brokers) {
            for (int i = 0; i < q.getWriteQueueNums(); i++) {
                queues.add(new MessageQueue(name, q.getBrokerName(), i));
            }
        }
        return new ShuffleTopic(name, queues);
    }

    public String name() {
        return name;
    }

    public int queueCount() {
        return queues.size();
    }

    /** Shuffle queue {@code index}. */
    public MessageQueue queue(int index) {
        return queues.get(index);
    }

    /** The index of a queue of this topic, or -1. */
    public int indexOf(MessageQueue queue) {
        return queues.indexOf(queue);
    }

    @Override
    public String toString() {
        return name + " (" + queues.size() + " queues)";
    }
}
