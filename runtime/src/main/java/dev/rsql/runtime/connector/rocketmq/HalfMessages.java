package dev.rsql.runtime.connector.rocketmq;

import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.MessageQueue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The half messages one writer sent under one transaction id, per target queue in write order, each with what
 * ending it takes: the broker's {@link SendResult} (commit log offset, queue offset, message id) and when it was sent.
 * The bodies are not kept. Added to by the task thread; results are filled in by send callbacks.
 */
final class HalfMessages {

    final String transactionId;
    private final Map<MessageQueue, List<Half>> byQueue = new LinkedHashMap<>();
    private int count;

    HalfMessages(String transactionId) {
        this.transactionId = transactionId;
    }

    Half add(MessageQueue queue) {
        Half h = new Half();
        byQueue.computeIfAbsent(queue, q -> new ArrayList<>()).add(h);
        count++;
        return h;
    }

    Map<MessageQueue, List<Half>> byQueue() {
        return byQueue;
    }

    int count() {
        return count;
    }

    /** One half message. */
    static final class Half {
        /** When its (last) send started: no later than the born timestamp the broker's check goes by. */
        volatile long sentAtMillis;
        /** Set once the broker stored it. */
        volatile SendResult result;
    }
}
