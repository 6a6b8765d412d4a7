package dev.rsql.e2e;

import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;

import java.util.UUID;

/** Readers of whole sink topics for the end-to-end tests. */
final class TopicReaders {

    private TopicReaders() {
    }

    /** A started consumer of every queue of {@code topic}, from its first message, in a group of its own. */
    static DefaultLitePullConsumer fromStart(String namesrv, String topic) throws Exception {
        String id = UUID.randomUUID().toString().replace("-", "");
        DefaultLitePullConsumer c = new DefaultLitePullConsumer("rsql_e2e_reader_" + id);
        c.setNamesrvAddr(namesrv);
        c.setInstanceName("rsql-e2e-reader-" + id);
        c.setAutoCommit(false);
        c.setPullBatchSize(1000);
        // A new group starts at the first offset; seeking right after assign() would interrupt the pull tasks it
        // started, and an interrupted pull closes the client's broker connection under the seek's own request.
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.start();
        c.assign(c.fetchMessageQueues(topic));
        return c;
    }
}
