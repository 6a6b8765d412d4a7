package dev.rsql.runtime.rocketmq;

import dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.createTopic;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.namesrv;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(RocketMqTestSupport.class)
class GroupConsumerTest {

    private static final int QUEUES = 8;
    private static final int GROUPS = 12;

    /**
     * A process reading more queues than it was given pull threads, all of them caught up but one: a pull of a
     * caught-up queue waits at the broker on a pull thread, so with one thread for six queues the queue with a
     * backlog got a pull of 32 messages every ten seconds or so. Every queue it reads now has a thread.
     */
    @Test
    void idleQueuesDoNotStarveOneWithABacklog() throws Exception {
        int queues = 6;
        int backlog = 6_000;
        String topic = createTopic("idle_queues", queues);
        RocketMqTestSupport.produce(topic, queues - 1,
                IntStream.range(0, backlog).mapToObj(i -> "m" + i).collect(Collectors.toList()));
        String group = unique("rsql_idle_queues");
        GroupConsumer consumer = new GroupConsumer(group, namesrv(), group, null, 32, 1);
        consumer.subscribe(topic, "*", (t, all, divided) -> {
            divided.forEach(q -> consumer.position(q, 0));
            consumer.pull(t, all, divided);
        });
        consumer.start();
        try {
            consumer.rebalanceNow();
            Map<Integer, Integer> read = new TreeMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            int total = 0;
            while (total < backlog && System.nanoTime() < deadline) {
                for (MessageExt m : consumer.consumer().poll(100)) {
                    read.merge(m.getQueueId(), 1, Integer::sum);
                    total++;
                }
            }
            assertEquals(Map.of(queues - 1, backlog), read, "messages read within 30 s, by queue");
        } finally {
            consumer.shutdown();
        }
    }

    /**
     * A new group's first commits, one per queue at the same moment (a job's tasks committing their first
     * checkpoint): the broker must hold every queue's offset afterwards.
     */
    @Test
    void concurrentFirstCommitsOfANewGroupAreAllKept() throws Exception {
        String topic = createTopic("first_commits", QUEUES);
        List<MessageQueue> queues = new ArrayList<>();
        for (int q = 0; q < QUEUES; q++) {
            queues.add(new MessageQueue(topic, RocketMqTestSupport.broker().brokerName(), q));
        }
        ExecutorService pool = Executors.newFixedThreadPool(QUEUES);
        try {
            Map<String, Map<Integer, Long>> missing = new TreeMap<>();
            for (int g = 0; g < GROUPS; g++) {
                String group = unique("rsql_first_commit");
                GroupConsumer consumer = new GroupConsumer(group, namesrv(), group, null, 32, 1);
                consumer.start();
                try {
                    CountDownLatch go = new CountDownLatch(1);
                    List<Future<?>> commits = new ArrayList<>();
                    for (MessageQueue q : queues) {
                        commits.add(pool.submit(() -> {
                            go.await();
                            consumer.commit(q, 100 + q.getQueueId());
                            return null;
                        }));
                    }
                    go.countDown();
                    for (Future<?> f : commits) {
                        f.get();
                    }
                    for (MessageQueue q : queues) {
                        Long stored = consumer.committedOffset(q);
                        if (stored == null || stored != 100 + q.getQueueId()) {
                            missing.computeIfAbsent(group, k -> new TreeMap<>()).put(q.getQueueId(), stored);
                        }
                    }
                } finally {
                    consumer.shutdown();
                }
            }
            assertEquals(Map.of(), missing, "offsets the broker does not hold as committed, by group and queue");
        } finally {
            pool.shutdownNow();
        }
    }
}
