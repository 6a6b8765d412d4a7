package dev.rsql.e2e;

import dev.rsql.broker.LocalRocketMq;

/** What the end-to-end tests need of a broker, whether it runs in the test's JVM or in a child process. */
interface TestBroker {

    String nameServerAddress();

    /** Creates a topic with {@code queues} queues; returns once clients can see it. */
    void createTopic(String topic, int queues);

    /** Half messages of the topics that the broker holds open (neither committed nor rolled back yet). */
    long openTransactions(String... topics);

    static TestBroker of(LocalRocketMq mq) {
        return new TestBroker() {
            @Override
            public String nameServerAddress() {
                return mq.nameServerAddress();
            }

            @Override
            public void createTopic(String topic, int queues) {
                mq.createTopic(topic, queues);
            }

            @Override
            public long openTransactions(String... topics) {
                return TestBroker.openTransactions(mq, topics);
            }
        };
    }

    static long openTransactions(LocalRocketMq mq, String... topics) {
        var metrics = mq.brokerController().getTransactionalMessageService().getTransactionMetrics();
        long n = 0;
        for (String t : topics) {
            n += metrics.getTransactionCount(t);
        }
        return n;
    }
}
