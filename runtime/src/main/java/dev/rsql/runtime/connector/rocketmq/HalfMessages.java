package dev.rsql.runtime.connector.rocketmq;

import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.MessageQueue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The half messages one writer sent under one transaction id, in write order per {@link Chain} (a message key in its
 * queue; a queue for messages without a key), each with what ending it takes: the broker's {@link SendResult}
 * (commit log offset, queue offset, message id) and when it was sent. The bodies are not kept. Added to by the task
 * thread; results are filled in by send callbacks.
 */
final class HalfMessages {

    final String transactionId;
    /** The producer group the halves name, which their ends must name too. */
    final String producerGroup;
    private final Map<Chain, List<Half>> byChain = new LinkedHashMap<>();
    private int count;

    HalfMessages(String transactionId, String producerGroup) {
        this.transactionId = transactionId;
        this.producerGroup = producerGroup;
    }

    /** Adds a half of message key {@code key} (null: none) sent to {@code queue}. */
    Half add(MessageQueue queue, String key) {
        Half h = new Half();
        byChain.computeIfAbsent(new Chain(queue, key), c -> new ArrayList<>()).add(h);
        count++;
        return h;
    }

    Map<Chain, List<Half>> byChain() {
        return byChain;
    }

    int count() {
        return count;
    }

    /**
     * Halves whose order must be kept when they become visible: those of one message key in one queue (what a
     * consumer of that key sees in order), or all of a queue's halves without a key.
     */
    record Chain(MessageQueue queue, String key) {
    }

    /** One half message. */
    static final class Half {
        /** When its (last) send started: no later than the born timestamp the broker's check goes by. */
        volatile long sentAtMillis;
        /** Set once the broker stored it. */
        volatile SendResult result;
    }
}
