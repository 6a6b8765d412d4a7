package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport;
import dev.rsql.runtime.testing.Await;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.namesrv;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.send;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(RocketMqTestSupport.class)
class ShuffleReaderTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** Records what a reader is told. */
    static final class Owner implements ShuffleReader.Listener {
        final Set<MessageQueue> owned = ConcurrentHashMap.newKeySet();
        final Set<MessageQueue> revoked = ConcurrentHashMap.newKeySet();

        @Override
        public void assigned(MessageQueue queue) {
            owned.add(queue);
        }

        @Override
        public void revoked(MessageQueue queue) {
            owned.remove(queue);
            revoked.add(queue);
        }
    }

    private static ShuffleTopic topicWithMessages(int perQueue) throws Exception {
        ShuffleTopic topic;
        try (TopicProvisioner provisioner = new TopicProvisioner(namesrv())) {
            topic = provisioner.provision(ShuffleTopic.topicName(unique("job"), "ex"), 2);
        }
        for (int q = 0; q < 2; q++) {
            for (int i = 0; i < perQueue; i++) {
                send(new Message(topic.name(), ("q" + q + "-" + i).getBytes(StandardCharsets.UTF_8)), q);
            }
        }
        return topic;
    }

    private static List<String> read(ShuffleReader reader, int count, MessageQueue expectedQueue) {
        List<String> bodies = new ArrayList<>();
        Await.until(() -> count + " messages of " + expectedQueue + ", got " + bodies, TIMEOUT, () -> {
            for (MessageExt m : reader.poll(Duration.ofMillis(20))) {
                assertEquals(expectedQueue, reader.queueOf(m));
                assertEquals(m.getQueueOffset(), Long.parseLong(body(m).substring(3)), "offset of " + body(m));
                bodies.add(body(m));
            }
            return bodies.size() >= count;
        });
        return bodies;
    }

    private static String body(MessageExt m) {
        return new String(m.getBody(), StandardCharsets.UTF_8);
    }

    @Test
    void anAssignedQueueIsReadFromWhereItIsSoughtOnly() throws Exception {
        ShuffleTopic topic = topicWithMessages(10);
        String group = unique("rsql_test_group");
        Owner owner = new Owner();
        try (ShuffleReader reader = new ShuffleReader(namesrv(), group, group, topic, owner)) {
            reader.start();
            Await.until("both queues assigned", TIMEOUT, () -> owner.owned.size() == 2);
            assertTrue(reader.poll(Duration.ofMillis(300)).isEmpty(), "nothing is read before a seek");

            reader.seek(topic.queue(0), 4);
            assertEquals(List.of("q0-4", "q0-5", "q0-6", "q0-7", "q0-8", "q0-9"), read(reader, 6, topic.queue(0)));
            assertThrows(IllegalStateException.class, () -> reader.seek(topic.queue(0), 0));

            reader.seek(topic.queue(1), 8);
            assertEquals(List.of("q1-8", "q1-9"), read(reader, 2, topic.queue(1)));
            send(new Message(topic.name(), "q1-10".getBytes(StandardCharsets.UTF_8)), 1);
            assertEquals(List.of("q1-10"), read(reader, 1, topic.queue(1)));
        }
    }

    /** A task that failed restarts from its checkpoint: the queue is read again from there, more than once. */
    @Test
    void aQueueIsReadAgainFromWhereARestartSays() throws Exception {
        ShuffleTopic topic = topicWithMessages(6);
        String group = unique("rsql_test_group");
        Owner owner = new Owner();
        MessageQueue q = topic.queue(0);
        try (ShuffleReader reader = new ShuffleReader(namesrv(), group, group, topic, owner)) {
            reader.start();
            Await.until("both queues assigned", TIMEOUT, () -> owner.owned.size() == 2);
            reader.seek(q, 0);
            assertEquals(6, read(reader, 6, q).size());

            assertTrue(reader.restart(q, 2));
            assertEquals(List.of("q0-2", "q0-3", "q0-4", "q0-5"), read(reader, 4, q));
            assertTrue(reader.restart(q, 4));
            assertEquals(List.of("q0-4", "q0-5"), read(reader, 2, q));
            send(new Message(topic.name(), "q0-6".getBytes(StandardCharsets.UTF_8)), 0);
            assertEquals(List.of("q0-6"), read(reader, 1, q));
        }
    }

    @Test
    void aSecondMemberTakesQueuesAwayFromTheFirst() throws Exception {
        ShuffleTopic topic = topicWithMessages(3);
        String group = unique("rsql_test_group");
        Owner first = new Owner();
        Owner second = new Owner();
        try (ShuffleReader a = new ShuffleReader(namesrv(), group, group + "_a", topic, first)) {
            a.start();
            Await.until("the first member owns both queues", TIMEOUT, () -> first.owned.size() == 2);
            try (ShuffleReader b = new ShuffleReader(namesrv(), group, group + "_b", topic, second)) {
                b.start();
                Await.until(() -> "one queue each, got " + first.owned + " and " + second.owned, TIMEOUT,
                        () -> first.owned.size() == 1 && second.owned.size() == 1);
                Set<MessageQueue> all = new HashSet<>(first.owned);
                all.addAll(second.owned);
                assertEquals(2, all.size(), "disjoint");
                assertEquals(second.owned, first.revoked, "the first member was told what it lost");
                MessageQueue moved = second.owned.iterator().next();
                b.seek(moved, 1);
                assertEquals(2, read(b, 2, moved).size());
                assertThrows(IllegalStateException.class, () -> a.seek(moved, 0), "no longer the first's");
                assertFalse(a.restart(moved, 0), "a retake of a queue revoked meanwhile reads nothing");
            }
        }
    }
}
