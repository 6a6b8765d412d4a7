package dev.rsql.broker;

import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LocalRocketMqTest {

    @TempDir
    Path dir;

    @Test
    void startsProducesConsumesAndCloses() throws Exception {
        long t0 = System.nanoTime();
        LocalRocketMq mq = LocalRocketMq.start(dir);
        long startedMs = (System.nanoTime() - t0) / 1_000_000;
        String namesrv = mq.nameServerAddress();
        String broker = mq.brokerAddress();
        System.out.println("LocalRocketMq started in " + startedMs + " ms: " + mq);
        try {
            long t1 = System.nanoTime();
            mq.createTopic("local_broker_test", 2);
            System.out.println("createTopic took " + (System.nanoTime() - t1) / 1_000_000 + " ms");

            DefaultMQProducer producer = new DefaultMQProducer("local_broker_test_producer");
            producer.setNamesrvAddr(namesrv);
            producer.setInstanceName("local-broker-test");
            producer.start();
            SendResult sent;
            try {
                Message msg = new Message("local_broker_test", "tagA", "key-1", "hello".getBytes(StandardCharsets.UTF_8));
                sent = producer.send(msg);
                assertEquals(SendStatus.SEND_OK, sent.getSendStatus());
            } finally {
                producer.shutdown();
            }

            DefaultLitePullConsumer consumer = new DefaultLitePullConsumer("local_broker_test_consumer");
            consumer.setNamesrvAddr(namesrv);
            consumer.setInstanceName("local-broker-test-consumer");
            consumer.setAutoCommit(false);
            // Start at the first offset instead of seeking: a seek right after assign() interrupts the pull tasks
            // assign() started, and an interrupted pull closes the client's connection under the seek's request.
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.start();
            try {
                Collection<MessageQueue> queues = consumer.fetchMessageQueues("local_broker_test");
                assertEquals(2, queues.size());
                consumer.assign(queues);
                List<MessageExt> got = new ArrayList<>();
                long deadline = System.currentTimeMillis() + 20_000;
                while (got.isEmpty() && System.currentTimeMillis() < deadline) {
                    got.addAll(consumer.poll(200));
                }
                assertEquals(1, got.size());
                MessageExt m = got.get(0);
                assertEquals("hello", new String(m.getBody(), StandardCharsets.UTF_8));
                assertEquals("tagA", m.getTags());
                assertEquals("key-1", m.getKeys());
                assertEquals(sent.getMessageQueue().getQueueId(), m.getQueueId());
            } finally {
                consumer.shutdown();
            }

            assertTrue(Files.isDirectory(dir.resolve("broker/store/commitlog")), "store under the data dir");
            assertTrue(Files.isRegularFile(dir.resolve("broker/store/config/topics.json"))
                    || Files.isDirectory(dir.resolve("broker/store/config")), "config under the data dir");
            assertThrows(IllegalArgumentException.class, () -> mq.createTopic("bad topic", 1));
        } finally {
            long t2 = System.nanoTime();
            mq.close();
            System.out.println("LocalRocketMq closed in " + (System.nanoTime() - t2) / 1_000_000 + " ms");
        }
        assertFalse(listening(namesrv), "name server port released");
        assertFalse(listening(broker), "broker port released");
    }

    @Test
    void mainRejectsBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> LocalBrokerMain.Args.parse(new String[]{"--namesrv-port", "1"}));
        assertThrows(IllegalArgumentException.class,
                () -> LocalBrokerMain.Args.parse(new String[]{"--dir", "x", "--broker-port", "abc"}));
        LocalBrokerMain.Args a = LocalBrokerMain.Args.parse(new String[]{"--dir", "x", "--namesrv-port=0", "--broker-port", "0"});
        assertEquals(Path.of("x"), a.dir);
        assertEquals(0, a.namesrvPort);
        assertNull(LocalBrokerMain.Args.parse(new String[]{"--help"}));
    }

    private static boolean listening(String address) {
        int colon = address.lastIndexOf(':');
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
