package dev.rsql.broker;

import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    /**
     * Every socket the broker and name server listen on is bound to 127.0.0.1 (RocketMQ's default is 0.0.0.0): read
     * from /proc/net/tcp*, for the listening sockets this process holds, those opened by the start.
     */
    @Test
    void listensOnLoopbackOnly() throws Exception {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "needs Linux /proc");
        Map<Long, String> before = listening();
        LocalRocketMq mq = LocalRocketMq.start(dir);
        try {
            Map<Long, String> opened = listening();
            opened.keySet().removeAll(before.keySet());
            int namesrvPort = Integer.parseInt(mq.nameServerAddress().replaceAll(".*:", ""));
            int brokerPort = Integer.parseInt(mq.brokerAddress().replaceAll(".*:", ""));
            assertTrue(opened.values().containsAll(List.of("127.0.0.1:" + namesrvPort, "127.0.0.1:" + brokerPort)),
                    "listening: " + opened.values());
            assertEquals(3, opened.size(), "name server, broker, its VIP channel and no HA port: " + opened.values());
            for (String address : opened.values()) {
                assertTrue(address.startsWith("127.0.0.1:"), "listening on " + address + ": " + opened.values());
            }
            for (InetAddress other : nonLoopbackAddresses()) {
                try (Socket s = new Socket()) {
                    assertThrows(IOException.class, () -> s.connect(new InetSocketAddress(other, namesrvPort), 2000),
                            "the name server answers on " + other);
                }
            }
        } finally {
            mq.close();
        }
    }

    /** Listening TCP sockets of this process by inode, as address:port. */
    private static Map<Long, String> listening() throws IOException {
        Set<Long> mine = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        mine.add(Long.parseLong(target.substring(8, target.length() - 1)));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        Map<Long, String> out = new HashMap<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path p = Path.of(table);
            if (!Files.isReadable(p)) {
                continue;
            }
            List<String> lines = Files.readAllLines(p);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                long inode = Long.parseLong(f[9]);
                if (f[3].equals("0A") && mine.contains(inode)) {
                    out.put(inode, address(f[1]));
                }
            }
        }
        return out;
    }

    /** A /proc/net/tcp local address (little-endian hex IPv4, or IPv6 in four little-endian words) as text. */
    private static String address(String hex) {
        String[] parts = hex.split(":");
        int port = Integer.parseInt(parts[1], 16);
        String ip = parts[0];
        if (ip.length() == 8) {
            long v = Long.parseLong(ip, 16);
            return (v & 0xff) + "." + (v >> 8 & 0xff) + "." + (v >> 16 & 0xff) + "." + (v >> 24 & 0xff) + ":" + port;
        }
        if (ip.equals("0000000000000000FFFF00000100007F")) {
            return "127.0.0.1:" + port;
        }
        return (ip.equals("00000000000000000000000000000000") ? "[::]" : "[" + ip + "]") + ":" + port;
    }

    private static List<InetAddress> nonLoopbackAddresses() throws IOException {
        List<InetAddress> out = new ArrayList<>();
        for (NetworkInterface ni : java.util.Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : java.util.Collections.list(ni.getInetAddresses())) {
                if (!a.isLoopbackAddress() && a instanceof java.net.Inet4Address) {
                    out.add(a);
                }
            }
        }
        return out;
    }
}
