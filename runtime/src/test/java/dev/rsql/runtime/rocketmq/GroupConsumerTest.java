package dev.rsql.runtime.rocketmq;

import dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport;
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

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.createTopic;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.namesrv;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(RocketMqTestSupport.class)
class GroupConsumerTest {

    private static final int QUEUES = 8;
    private static final int GROUPS = 12;

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
