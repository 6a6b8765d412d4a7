package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.rocketmq.GroupConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads the shuffle queues assigned to this process: a lite-pull consumer in the exchange's consumer group
 * ({@link ShuffleTopic#consumerGroup}), whose rebalancing spreads the topic's queues over the processes of the job.
 *
 * <p>An assigned queue is not read until {@link #seek} says where its task resumes (the offset of its last commit
 * record, known once its state is restored); from then on {@link #poll} returns its messages in offset order.
 * A queue is positioned once per assignment: RocketMQ's own seek interrupts pull threads, which can close the
 * client's broker connection, so there is no moving a queue that is being read.
 *
 * <p>Threads: {@link Listener} methods run on the client's rebalance thread; {@link #poll} belongs to one thread;
 * the other methods may be called from any thread.
 */
public final class ShuffleReader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ShuffleReader.class);
    private static final int PULL_BATCH = 32;
    /** Messages the client may buffer per queue (a message holds up to {@code shuffle.batch.bytes}). */
    private static final int BUFFERED_MESSAGES = 64;
    private static final int BUFFERED_MIB = 16;

    /** Learns which queues this process owns; called on the rebalance thread. */
    public interface Listener {
        /** The queue is this process's now; nothing is read from it until {@link #seek}. */
        void assigned(MessageQueue queue);

        /**
         * The queue goes to another process: {@link #poll} no longer returns its messages, and the rebalance waits
         * until this returns (the task stops, checkpoints and closes its state here).
         */
        void revoked(MessageQueue queue);
    }

    private final ShuffleTopic topic;
    private final Listener listener;
    private final GroupConsumer consumer;
    private final Map<MessageQueue, Assignment> assigned = new ConcurrentHashMap<>();
    private Set<MessageQueue> all = Set.of();          // the last rebalance's view of the topic; guarded by this

    /**
     * @param instanceName the RocketMQ client instance name: unique per process and job (clients of one JVM with the
     *                     same name share a connection set and cannot both join a group)
     */
    public ShuffleReader(String namesrv, String group, String instanceName, ShuffleTopic topic, Listener listener) {
        this.topic = topic;
        this.listener = listener;
        // one pull thread per queue it is given (GroupConsumer.pull), none idle beyond that
        this.consumer = new GroupConsumer(group, namesrv, instanceName, null, PULL_BATCH, 1);
        consumer.consumer().setPullThresholdForQueue(BUFFERED_MESSAGES);
        consumer.consumer().setPullThresholdSizeForQueue(BUFFERED_MIB);
    }

    /** Joins the group; the first assignments follow at once. */
    public void start() throws MQClientException {
        consumer.subscribe(topic.name(), "*", this::queuesChanged);
        consumer.start();
        consumer.rebalanceNow();
        LOG.info("topic={} group={}: shuffle reader started", topic.name(), consumer.group());
    }

    private void queuesChanged(String topicName, Set<MessageQueue> all, Set<MessageQueue> divided) {
        for (Map.Entry<MessageQueue, Assignment> e : assigned.entrySet()) {
            MessageQueue q = e.getKey();
            if (!divided.contains(q)) {
                e.getValue().revoked = true;
                LOG.info("topic={} group={} queue={}: revoked", topicName, consumer.group(), q.getQueueId());
                try {
                    listener.revoked(q);
                } catch (RuntimeException ex) {
                    LOG.error("topic={} group={} queue={}: revoking failed", topicName, consumer.group(),
                            q.getQueueId(), ex);
                }
                assigned.remove(q);
            }
        }
        List<MessageQueue> added = new ArrayList<>();
        for (MessageQueue q : divided) {
            if (assigned.putIfAbsent(q, new Assignment()) == null) {
                added.add(q);
            }
        }
        synchronized (this) {
            this.all = all;
            consumer.pull(topicName, all, reading());
        }
        for (MessageQueue q : added) {
            LOG.info("topic={} group={} queue={}: assigned", topicName, consumer.group(), q.getQueueId());
            try {
                listener.assigned(q);
            } catch (RuntimeException ex) {
                LOG.error("topic={} group={} queue={}: taking the queue failed", topicName, consumer.group(),
                        q.getQueueId(), ex);
            }
        }
    }

    /** Starts reading an assigned queue at {@code offset}; once per assignment. */
    public void seek(MessageQueue queue, long offset) {
        Assignment a = assigned.get(queue);
        synchronized (this) {
            if (a == null || a.revoked) {
                throw new IllegalStateException("queue " + queue + " is not assigned to this process");
            }
            if (a.reading) {
                throw new IllegalStateException("queue " + queue + " is being read already");
            }
            a.nextOffset = offset;
            a.reading = true;
            consumer.position(queue, offset);
            consumer.pull(topic.name(), all, reading());
        }
        LOG.info("topic={} group={} queue={}: reading from offset {}", topic.name(), consumer.group(),
                queue.getQueueId(), offset);
    }

    /**
     * Reads an assigned queue again from {@code offset} (its new task restored an older or newer checkpoint than where
     * reading was): the queue's pull task is dropped, with what it had fetched, and a new one starts there. Returns
     * false, reading nothing, if the queue was revoked meanwhile ({@link Listener#revoked} is then under way).
     */
    public boolean restart(MessageQueue queue, long offset) {
        Assignment a = assigned.get(queue);
        synchronized (this) {
            if (a == null || a.revoked) {
                return false;
            }
            a.reading = false;
            consumer.pull(topic.name(), all, reading());
            a.nextOffset = offset;
            a.reading = true;
            consumer.position(queue, offset);
            consumer.pull(topic.name(), all, reading());
        }
        LOG.info("topic={} group={} queue={}: reading again from offset {}", topic.name(), consumer.group(),
                queue.getQueueId(), offset);
        return true;
    }

    /** True while the group assigns the queue to this process. */
    public boolean isAssigned(MessageQueue queue) {
        Assignment a = assigned.get(queue);
        return a != null && !a.revoked;
    }

    /** The queues this process reads. */
    private Set<MessageQueue> reading() {
        Set<MessageQueue> queues = new HashSet<>();
        assigned.forEach((q, a) -> {
            if (a.reading && !a.revoked) {
                queues.add(q);
            }
        });
        return queues;
    }

    /** Stops fetching a queue for now (its task is behind); messages already fetched are still returned. */
    public void pause(MessageQueue queue) {
        consumer.consumer().pause(List.of(queue));
    }

    public void resume(MessageQueue queue) {
        consumer.consumer().resume(List.of(queue));
    }

    /** The next messages of one queue being read, in offset order; empty when none came within the timeout. */
    public List<MessageExt> poll(Duration timeout) {
        List<MessageExt> polled = consumer.consumer().poll(timeout.toMillis());
        if (polled.isEmpty()) {
            return polled;
        }
        MessageQueue queue = queueOf(polled.get(0));
        Assignment a = assigned.get(queue);
        if (a == null || a.revoked || !a.reading) {
            return List.of();
        }
        List<MessageExt> out = new ArrayList<>(polled.size());
        for (MessageExt m : polled) {
            long offset = m.getQueueOffset();
            if (offset < a.nextOffset) {
                continue;   // handed out already
            }
            if (offset > a.nextOffset) {
                LOG.warn("topic={} group={} queue={}: offsets {} to {} are gone from the broker", topic.name(),
                        consumer.group(), queue.getQueueId(), a.nextOffset, offset - 1);
            }
            a.nextOffset = offset + 1;
            out.add(m);
        }
        return out;
    }

    /** The shuffle queue a polled message comes from. */
    public MessageQueue queueOf(MessageExt message) {
        return new MessageQueue(message.getTopic(), message.getBrokerName(), message.getQueueId());
    }

    /** Stores {@code offset} as the group's offset of the queue (for monitoring: commit records are authoritative). */
    public void commit(MessageQueue queue, long offset) throws Exception {
        consumer.commit(queue, offset);
    }

    /** Leaves the group; does not call {@link Listener#revoked}: stop the queues' tasks first. */
    @Override
    public void close() {
        consumer.shutdown();
        LOG.info("topic={} group={}: shuffle reader closed", topic.name(), consumer.group());
    }

    /** A queue assigned to this process. */
    private static final class Assignment {
        volatile boolean reading;
        volatile boolean revoked;
        long nextOffset;           // the poll thread's, once reading
    }
}
