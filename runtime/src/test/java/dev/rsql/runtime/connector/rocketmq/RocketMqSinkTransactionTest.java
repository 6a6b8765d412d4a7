package dev.rsql.runtime.connector.rocketmq;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkTransactions;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.DefaultConnectorContext;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.DataType;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.await;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.broker;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.createTopic;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.engineConfig;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.jobInfo;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.readAll;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.storedCount;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sink of a transactional job: half messages, commits at checkpoints, and the broker's check after a crash. */
@ExtendWith(RocketMqTestSupport.class)
class RocketMqSinkTransactionTest {

    private static final DataType BIGINT = DataType.of(DataType.Kind.BIGINT);
    private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void rowsBecomeVisibleOnCommitExactlyOnceAndInKeyOrder() throws Exception {
        String topic = createTopic("sink_tx", 4);
        TableDescriptor t = table("tx_out", columns(), Map.of("topic", topic, "sink.key-columns", "k"));
        Answers answers = new Answers();
        Sink sink = sink(t, "tx_commit", "p1", answers);
        int n = 2_000;
        try {
            TxContext ctx = new TxContext(0);
            ctx.transactionId = "A";
            SinkWriter w = sink.createWriter(ctx);
            for (long i = 0; i < n; i++) {
                w.write(Row.insert(i, i % 50));
            }
            w.flush();
            await("the broker to hold " + n + " open halves of " + topic, Duration.ofSeconds(10),
                    () -> openHalves(topic) == n);
            assertEquals(0, storedCount(topic), "flushed halves are not visible");

            answers.answer("A", SinkTransactions.Outcome.COMMIT);   // the job recorded the checkpoint durably
            w.commit("A");
            await(Duration.ofSeconds(30), () -> storedCount(topic) >= n, () -> n + " messages, got "
                    + storedCount(topic));
            awaitCheckPassedEverything(topic);

            List<MessageExt> messages = readAll(topic);
            assertEquals(LongStream.range(0, n).boxed().collect(Collectors.toSet()), ids(messages));
            assertEquals(n, messages.size(), "each row once");
            messages.sort(Comparator.comparingInt(MessageExt::getQueueId).thenComparingLong(MessageExt::getQueueOffset));
            Map<String, Long> lastIdByKey = new HashMap<>();
            for (MessageExt m : messages) {
                assertEquals("A", m.getUserProperty(RocketMqTransactionCheck.TRANSACTION_PROPERTY));
                long id = id(m);
                Long last = lastIdByKey.put(m.getKeys(), id);
                assertTrue(last == null || last < id, "key " + m.getKeys() + ": " + last + " then " + id);
            }
            w.close();
        } finally {
            sink.close();
        }
    }

    /**
     * Commits return before their ends are answered, so a transaction's rows are written while the previous one's ends
     * are under way: every row is still stored once, and each key's rows in write order across the transactions.
     */
    @Test
    void backToBackCommitsKeepEachKeysOrderAcrossTransactions() throws Exception {
        String topic = createTopic("sink_tx_seq", 2);
        TableDescriptor t = table("tx_seq", columns(), Map.of("topic", topic, "sink.key-columns", "k"));
        Answers answers = new Answers();
        Sink sink = sink(t, "tx_seq", "p1", answers);
        String[] transactions = {"T1", "T2", "T3", "T4"};
        int perTransaction = 300;
        int n = transactions.length * perTransaction;
        try {
            TxContext ctx = new TxContext(0);
            SinkWriter w = sink.createWriter(ctx);
            long id = 0;
            for (String tx : transactions) {
                ctx.transactionId = tx;
                for (int i = 0; i < perTransaction; i++, id++) {
                    w.write(Row.insert(id, id % 7));   // few keys: each key has rows in every transaction
                }
                w.flush();
                answers.answer(tx, SinkTransactions.Outcome.COMMIT);
                w.commit(tx);
            }
            w.close();   // waits for the last transaction's ends
            await(Duration.ofSeconds(30), () -> storedCount(topic) >= n, () -> n + " messages, got "
                    + storedCount(topic));
            // Every half ended by the writer, none left for the check to commit a second time.
            await("every half of " + topic + " ended", CHECK_TIMEOUT, () -> openHalves(topic) == 0);

            List<MessageExt> messages = readAll(topic);
            assertEquals(n, messages.size(), "each row once");
            assertEquals(LongStream.range(0, n).boxed().collect(Collectors.toSet()), ids(messages));
            messages.sort(Comparator.comparingInt(MessageExt::getQueueId).thenComparingLong(MessageExt::getQueueOffset));
            Map<String, Long> lastIdByKey = new HashMap<>();
            for (MessageExt m : messages) {
                long current = id(m);
                Long last = lastIdByKey.put(m.getKeys(), current);
                assertTrue(last == null || last < current, "key " + m.getKeys() + ": " + last + " then " + current);
            }
        } finally {
            sink.close();
        }
    }

    @Test
    void halvesOfACrashedWriterAreResolvedByTheBrokerCheckWhereTheirTaskRunsNow() throws Exception {
        String topic = createTopic("sink_tx_crash", 3);
        TableDescriptor t = table("tx_crash", columns(), Map.of("topic", topic));
        Sink crashing = sink(t, "tx_crash", "p1", new Answers());
        TxContext task0 = new TxContext(0);
        task0.transactionId = "B";
        SinkWriter w0 = crashing.createWriter(task0);
        TxContext task1 = new TxContext(1);
        task1.transactionId = "E";
        SinkWriter w1 = crashing.createWriter(task1);
        for (long i = 0; i < 50; i++) {
            w0.write(Row.insert(i, i));
        }
        task0.transactionId = "C";    // a checkpoint: B's checkpoint never becomes durable
        for (long i = 50; i < 120; i++) {
            w0.write(Row.insert(i, i));
            w1.write(Row.insert(i + 1000, i));
        }
        w0.flush();
        w1.flush();
        crashing.close();           // the process dies: neither B, C nor E is committed by the writers

        // Two other processes of the job (same sink group): task 0 now runs in p2, task 1 in p3.
        Answers p2 = new Answers();
        Answers p3 = new Answers();
        for (Answers a : List.of(p2, p3)) {
            a.answer("B", SinkTransactions.Outcome.ROLLBACK);
            a.answer("C", SinkTransactions.Outcome.COMMIT);
            a.answer("E", SinkTransactions.Outcome.COMMIT);
        }
        Sink survivor2 = sink(t, "tx_crash", "p2", p2);
        Sink survivor3 = sink(t, "tx_crash", "p3", p3);
        TxContext resumed0 = new TxContext(0);
        resumed0.transactionId = "F";
        TxContext resumed1 = new TxContext(1);
        resumed1.transactionId = "G";
        SinkWriter r0 = survivor2.createWriter(resumed0);
        SinkWriter r1 = survivor3.createWriter(resumed1);
        try {
            await(CHECK_TIMEOUT, () -> storedCount(topic) >= 140 && p2.asked("B") > 0 && openHalves(topic) == 0,
                    () -> "C and E visible, B checked and every half ended; stored " + storedCount(topic)
                            + ", open " + openHalves(topic) + ", asked p2 " + p2.asked + ", p3 " + p3.asked);
            awaitCheckPassedEverything(topic);
            Set<Long> expected = LongStream.range(50, 120).boxed().collect(Collectors.toSet());
            expected.addAll(LongStream.range(1050, 1120).boxed().collect(Collectors.toSet()));
            assertEquals(expected, ids(readAll(topic)));
            assertEquals(140, storedCount(topic), "C's and E's rows once, none of B's");
            // each task's checks went only where it runs
            assertEquals(0, p2.asked("E"), "p2 was asked about task 1's halves: " + p2.asked);
            assertEquals(0, p3.asked("B") + p3.asked("C"), "p3 was asked about task 0's halves: " + p3.asked);
            assertTrue(p3.asked("E") > 0, "p3 answered task 1's halves: " + p3.asked);
        } finally {
            r0.close();
            r1.close();
            survivor2.close();
            survivor3.close();
        }
    }

    /** Halves of the topic the broker has stored and not yet seen committed or rolled back. */
    private static long openHalves(String topic) {
        return broker().brokerController().getTransactionalMessageService().getTransactionMetrics()
                .getTransactionCount(topic);
    }

    /**
     * Waits until the broker's check service has walked its half queue past every half stored now, so that a half
     * it would still commit (a second time) has been committed.
     */
    private static void awaitCheckPassedEverything(String topic) {
        long end = RocketMqTestSupport.maxOffset(TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC, 0);
        await(CHECK_TIMEOUT, () -> RocketMqTestSupport.committedOffset(MixAll.CID_SYS_RMQ_TRANS,
                TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC, 0) >= end, () -> "the transaction check to pass offset "
                + end + " of the half queue (for " + topic + ")");
    }

    private static List<Column> columns() {
        return List.of(Column.physical("id", BIGINT), Column.physical("k", BIGINT));
    }

    private static Set<Long> ids(List<MessageExt> messages) {
        Set<Long> ids = new HashSet<>();
        for (MessageExt m : messages) {
            ids.add(id(m));
        }
        return ids;
    }

    private static long id(MessageExt m) {
        JSONObject body = JSON.parseObject(RocketMqTestSupport.body(m));
        return body.getLongValue("id");
    }

    private static Sink sink(TableDescriptor t, String job, String instance, SinkTransactions transactions) {
        ConnectorContext ctx = new DefaultConnectorContext(t, jobInfo(job, engineConfig(instance), transactions),
                new FormatRegistry(RocketMqSinkTransactionTest.class.getClassLoader()));
        return new RocketMqConnectorFactory().createSink(ctx);
    }

    /** The job's side: the answer for each transaction (UNKNOWN until set), and how often each was asked. */
    private static final class Answers implements SinkTransactions {
        final Map<String, Outcome> outcomes = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();

        void answer(String transactionId, Outcome outcome) {
            outcomes.put(transactionId, outcome);
        }

        int asked(String transactionId) {
            AtomicInteger n = asked.get(transactionId);
            return n == null ? 0 : n.get();
        }

        @Override
        public Outcome outcome(String transactionId) {
            asked.computeIfAbsent(transactionId, k -> new AtomicInteger()).incrementAndGet();
            return outcomes.getOrDefault(transactionId, Outcome.UNKNOWN);
        }
    }

    /** A task whose transaction id the test moves on, as checkpoints do. */
    private static final class TxContext implements SinkWriterContext {
        final int index;
        volatile String transactionId;

        TxContext(int index) {
            this.index = index;
        }

        @Override
        public String taskId() {
            return "task-" + index;
        }

        @Override
        public int taskIndex() {
            return index;
        }

        @Override
        public String transactionId() {
            return transactionId;
        }
    }
}
