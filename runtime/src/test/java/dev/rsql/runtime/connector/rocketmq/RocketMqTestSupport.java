package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.broker.LocalRocketMq;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.JobInfo;
import dev.rsql.runtime.connector.SinkTransactions;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.testing.Await;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Shared fixtures for the RocketMQ connector tests: one in-process {@link LocalRocketMq} for the whole test run
 * (started by the first test class that needs it, closed by JUnit when the run ends), a producer, a reader of whole
 * topics, unique names, and condition polling. Test classes use it with {@code @ExtendWith(RocketMqTestSupport.class)}.
 */
public final class RocketMqTestSupport implements BeforeAllCallback {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(RocketMqTestSupport.class);
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static volatile Fixture fixture;

    static {
        quietLogging();
    }

    /**
     * Keeps RocketMQ's own logging (a shaded logback) out of the console and out of {@code ~/logs}: everything goes
     * to {@code target/rocketmq-logs/rocketmq.log}. Must run before the first RocketMQ class logs.
     */
    static void quietLogging() {
        try {
            LocalRocketMq.redirectLogging(Path.of("target", "rocketmq-logs"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        fixture = context.getRoot().getStore(NS).getOrComputeIfAbsent("broker", k -> new Fixture(), Fixture.class);
    }

    /** The broker and a producer, alive for the whole test run. */
    static final class Fixture implements AutoCloseable {
        final Path dir;
        final LocalRocketMq mq;
        final DefaultMQProducer producer;

        Fixture() {
            try {
                dir = Files.createTempDirectory("rsql-rocketmq-test");
                long t0 = System.nanoTime();
                mq = LocalRocketMq.start(dir);
                System.out.printf("[rocketmq-tests] broker started in %d ms: %s%n",
                        (System.nanoTime() - t0) / 1_000_000, mq);
                producer = new DefaultMQProducer("rsql_test_feeder");
                producer.setNamesrvAddr(mq.nameServerAddress());
                producer.setInstanceName("rsql-test-feeder");
                producer.setSendMsgTimeout(10_000);
                producer.start();
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the local RocketMQ for tests", e);
            }
        }

        @Override
        public void close() throws IOException {
            long t0 = System.nanoTime();
            try {
                producer.shutdown();
                mq.close();
            } finally {
                deleteRecursively(dir);
            }
            System.out.printf("[rocketmq-tests] broker closed in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        }
    }

    public static LocalRocketMq broker() {
        return fixture.mq;
    }

    public static String namesrv() {
        return fixture.mq.nameServerAddress();
    }

    /** A name no other test in this run uses. */
    public static String unique(String base) {
        return base + "_" + COUNTER.incrementAndGet() + "_" + Long.toString(System.nanoTime() % 1_000_000, 36);
    }

    public static String createTopic(String base, int queues) {
        String topic = unique(base);
        broker().createTopic(topic, queues);
        return topic;
    }

    /** Sends bodies in batches, spreading the batches over the topic's queues in turn. */
    static void produce(String topic, List<String> bodies) throws Exception {
        List<MessageQueue> queues = new ArrayList<>(fixture.producer.fetchPublishMessageQueues(topic));
        queues.sort(Comparator.comparingInt(MessageQueue::getQueueId));
        produce(topic, bodies, batch -> queues.get(batch % queues.size()));
    }

    /** Sends bodies in batches, all to one queue. */
    public static void produce(String topic, int queueId, List<String> bodies) throws Exception {
        MessageQueue queue = new MessageQueue(topic, broker().brokerName(), queueId);
        produce(topic, bodies, batch -> queue);
    }

    /** Sends bodies in batches of 100, batch number b to {@code queueOfBatch(b)}. */
    private static void produce(String topic, List<String> bodies, IntFunction<MessageQueue> queueOfBatch)
            throws Exception {
        for (int i = 0, b = 0; i < bodies.size(); i += 100, b++) {
            List<Message> msgs = new ArrayList<>();
            for (String body : bodies.subList(i, Math.min(bodies.size(), i + 100))) {
                msgs.add(new Message(topic, body.getBytes(StandardCharsets.UTF_8)));
            }
            assertEquals(SendStatus.SEND_OK, fixture.producer.send(msgs, queueOfBatch.apply(b)).getSendStatus());
        }
    }

    /** Sends one message synchronously. */
    static SendResult send(Message msg) throws Exception {
        SendResult r = fixture.producer.send(msg);
        assertEquals(SendStatus.SEND_OK, r.getSendStatus());
        return r;
    }

    public static SendResult send(Message msg, int queueId) throws Exception {
        SendResult r = fixture.producer.send(msg, new MessageQueue(msg.getTopic(), broker().brokerName(), queueId));
        assertEquals(SendStatus.SEND_OK, r.getSendStatus());
        return r;
    }

    /** Messages stored in the topic right now (sum of the queues' max offsets), read from the broker's store. */
    public static long storedCount(String topic) {
        long n = 0;
        var config = broker().brokerController().getTopicConfigManager().selectTopicConfig(topic);
        if (config == null) {
            return 0;
        }
        for (int q = 0; q < config.getReadQueueNums(); q++) {
            n += Math.max(0, maxOffset(topic, q) - minOffset(topic, q));
        }
        return n;
    }

    static long maxOffset(String topic, int queueId) {
        try {
            return broker().brokerController().getMessageStore().getMaxOffsetInQueue(topic, queueId);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static long minOffset(String topic, int queueId) {
        try {
            return broker().brokerController().getMessageStore().getMinOffsetInQueue(topic, queueId);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The offset a group committed for a queue on the broker, or -1. */
    static long committedOffset(String group, String topic, int queueId) {
        return broker().brokerController().getConsumerOffsetManager().queryOffset(group, topic, queueId);
    }

    /** Every message stored in the topic when called, read with a throw-away consumer from the start of each queue. */
    static List<MessageExt> readAll(String topic) throws Exception {
        Map<Integer, Long> end = new HashMap<>();
        int queues = broker().brokerController().getTopicConfigManager().selectTopicConfig(topic).getReadQueueNums();
        long total = 0;
        for (int q = 0; q < queues; q++) {
            end.put(q, maxOffset(topic, q));
            total += maxOffset(topic, q);
        }
        List<MessageExt> out = new ArrayList<>();
        if (total == 0) {
            return out;
        }
        DefaultLitePullConsumer c = new DefaultLitePullConsumer(unique("rsql_test_reader"));
        c.setNamesrvAddr(namesrv());
        c.setInstanceName(unique("reader"));
        c.setAutoCommit(false);
        c.setPullBatchSize(512);
        // A new group starting at the first offset: seeking right after assign() would cancel (interrupt) the pull
        // tasks assign() just started, and an interrupted pull closes the client's shared broker connection.
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.start();
        try {
            List<MessageQueue> mqs = new ArrayList<>(c.fetchMessageQueues(topic));
            c.assign(mqs);
            Map<Integer, Long> next = new HashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!caughtUp(next, end)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("reading topic " + topic + " did not reach " + end + ", got " + next);
                }
                for (MessageExt m : c.poll(200)) {
                    if (m.getQueueOffset() < end.get(m.getQueueId())) {
                        out.add(m);
                    }
                    next.merge(m.getQueueId(), m.getQueueOffset() + 1, Math::max);
                }
            }
        } finally {
            c.shutdown();
        }
        return out;
    }

    private static boolean caughtUp(Map<Integer, Long> next, Map<Integer, Long> end) {
        for (Map.Entry<Integer, Long> e : end.entrySet()) {
            if (e.getValue() > 0 && next.getOrDefault(e.getKey(), 0L) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    static String body(MessageExt m) {
        return new String(m.getBody(), StandardCharsets.UTF_8);
    }

    /** Polls a condition every few milliseconds until it holds; fails the test after the timeout. */
    static void await(String what, Duration timeout, BooleanSupplier condition) {
        Await.until(what, timeout, condition);
    }

    static void await(Duration timeout, BooleanSupplier condition, Supplier<String> what) {
        Await.until(what, timeout, condition);
    }

    // ---- jobs and tables ----

    static TableDescriptor table(String name, List<Column> columns, Map<String, String> options) {
        Map<String, String> opts = new LinkedHashMap<>(options);
        return new TableDescriptor(name, new TableSchema(columns, List.of()), "rocketmq", new Options(opts));
    }

    static Map<String, String> engineConfig(String instanceId) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("rocketmq.namesrv", namesrv());
        c.put("checkpoint.interval", "200ms");
        c.put("instance.id", instanceId);
        c.put("state.dir", fixture.dir.resolve("state").toString());
        c.put("worker.threads", "2");
        return c;
    }

    static JobInstance startJob(JobGraph graph, Map<String, String> config) throws Exception {
        JobInstance job = new JobInstance(graph, EngineContext.of(config));
        job.start();
        return job;
    }

    /** Number of running tasks of a job instance (queues it owns). */
    static long runningTasks(JobInstance job) {
        return job.status().tasks.stream()
                .filter(t -> t.state == dev.rsql.runtime.exec.TaskStatus.State.RUNNING).count();
    }

    static JobInfo jobInfo(String name, Map<String, String> config) {
        return jobInfo(name, config, null);
    }

    /** A job; transactional when {@code transactions} is not null. */
    static JobInfo jobInfo(String name, Map<String, String> config, SinkTransactions transactions) {
        Options options = new Options(config);
        return new JobInfo() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String instanceId() {
                return options.getOrDefault("test", "instance.id");
            }

            @Override
            public Options config() {
                return options;
            }

            @Override
            public Path dataDir() {
                return fixture.dir.resolve("state").resolve(name);
            }

            @Override
            public ClassLoader classLoader() {
                return RocketMqTestSupport.class.getClassLoader();
            }

            @Override
            public SinkTransactions sinkTransactions() {
                return transactions;
            }
        };
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
