package dev.rsql.runtime.connector.rocketmq;

import com.alibaba.fastjson2.JSON;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkStage;
import dev.rsql.runtime.connector.SinkTransactions;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.DefaultConnectorContext;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.DataType;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.await;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.createTopic;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.engineConfig;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.jobInfo;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.readAll;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.storedCount;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sink of a transactional job with staged transactions: rows kept with the checkpoint, published once it is
 * recorded, and finished after a crash by the writer of the task that restores it.
 */
@ExtendWith(RocketMqTestSupport.class)
class RocketMqStagedSinkWriterTest {

    private static final DataType BIGINT = DataType.of(DataType.Kind.BIGINT);
    private static final DataType STRING = DataType.of(DataType.Kind.VARCHAR);
    private static final String PAD = "x".repeat(2_000);

    @Test
    void rowsArePublishedOnceTheirCheckpointIsRecordedOnceEachAndInKeyOrder() throws Exception {
        String topic = createTopic("sink_stage", 4);
        Sink sink = sink(topic, "stage_publish", Map.of());
        try {
            Stage stage = new Stage(null);
            Context ctx = new Context(stage, "T1");
            SinkWriter w = sink.createWriter(ctx);
            assertTrue(w instanceof RocketMqStagedSinkWriter, "a transactional task's writer stages: " + w);
            assertNotNull(stage.participant, "the writer joined its task's checkpoints");
            long id = 0;
            for (; id < 1_000; id++) {
                w.write(Row.insert(id, id % 7, "a"));
            }
            w.flush();
            assertEquals(1, stage.participant.stage("T1").size(), "one chunk for 1,000 small rows");
            assertEquals(0, storedCount(topic), "nothing is visible before the checkpoint is recorded");
            w.commit("T1");

            ctx.transactionId = "T2";   // rows of the next checkpoint while T1's are published
            for (; id < 1_300; id++) {
                w.write(Row.insert(id, id % 7, "b"));
            }
            w.flush();                  // waits for T1's rows
            await(Duration.ofSeconds(10), () -> storedCount(topic) >= 1_000, () -> "T1's rows, got "
                    + storedCount(topic));
            stage.participant.stage("T2");
            w.commit("T2");
            w.close();
            // Sent is stored, but readers see a message only once the broker has indexed it.
            await(Duration.ofSeconds(10), () -> storedCount(topic) >= 1_300, () -> "all rows, got "
                    + storedCount(topic));

            List<MessageExt> messages = readAll(topic);
            assertEquals(1_300, messages.size(), "each row once");
            messages.sort(Comparator.comparingInt(MessageExt::getQueueId).thenComparingLong(MessageExt::getQueueOffset));
            Map<String, Long> lastIdByKey = new HashMap<>();
            for (MessageExt m : messages) {
                long current = id(m);
                assertEquals(current < 1_000 ? "T1" : "T2",
                        m.getUserProperty(RocketMqTransactionCheck.TRANSACTION_PROPERTY));
                assertEquals(String.valueOf(current < 1_000 ? current : current - 1_000),
                        m.getUserProperty(RocketMqStagedSinkWriter.SEQUENCE_PROPERTY));
                Long last = lastIdByKey.put(m.getKeys(), current);
                assertTrue(last == null || last < current, "key " + m.getKeys() + ": " + last + " then " + current);
            }
        } finally {
            sink.close();
        }
    }

    /**
     * A crash after a checkpoint was recorded, while its rows were published: 40 of 600 are stored. The restored
     * task's writer publishes the other 560, and a second restore of the same checkpoint publishes nothing.
     */
    @Test
    void aRestoredWriterPublishesWhatTheCrashLeftUnpublished() throws Exception {
        String topic = createTopic("sink_stage_crash", 4);
        Sink sink = sink(topic, "stage_crash", Map.of());
        try {
            Stage crashed = new Stage(null);
            SinkWriter staging = sink.createWriter(new Context(crashed, "X"));
            for (long id = 0; id < 600; id++) {
                staging.write(Row.insert(id, id % 11, PAD));
            }
            staging.flush();
            List<byte[]> chunks = crashed.participant.stage("X");
            assertTrue(chunks.size() > 1, "1.2 MB of rows take more than one chunk: " + chunks.size());
            // Its first 40 rows were stored before the crash: the same rows, numbered alike, published by a writer
            // whose checkpoint staged only those.
            Stage partial = new Stage(null);
            SinkWriter first = sink.createWriter(new Context(partial, "X"));
            for (long id = 0; id < 40; id++) {
                first.write(Row.insert(id, id % 11, PAD));
            }
            first.flush();
            partial.participant.stage("X");
            first.commit("X");
            first.close();
            staging.close();     // the crash: the 560 other rows are not published
            await(Duration.ofSeconds(10), () -> storedCount(topic) >= 40, () -> "40 rows, got " + storedCount(topic));

            SinkStage.Recovered recovered = new SinkStage.Recovered("X", chunks, System.currentTimeMillis() - 60_000,
                    60_000);
            SinkWriter restored = sink.createWriter(new Context(new Stage(recovered), "Y"));
            restored.close();
            await(Duration.ofSeconds(10), () -> storedCount(topic) >= 600, () -> "600 rows, got "
                    + storedCount(topic));
            SinkWriter again = sink.createWriter(new Context(new Stage(recovered), "Z"));
            again.close();
            // Once a message sent after it is readable, so is anything the second restore published.
            RocketMqTestSupport.send(new Message(topic, "{\"id\":-1}".getBytes(StandardCharsets.UTF_8)), 0);
            await(Duration.ofSeconds(10), () -> storedCount(topic) >= 601, () -> "601 messages, got "
                    + storedCount(topic));
            List<Long> expected = ids(-1, 600);
            assertEquals(expected, ids(readAll(topic)), "each row once");
        } finally {
            sink.close();
        }
    }

    /**
     * The checkpoint was recorded a moment ago: its writer might still be publishing elsewhere, so the restored writer
     * waits until it cannot be, then publishes what is still missing.
     */
    @Test
    void aRestoreRightAfterTheCheckpointWaitsForThePublishTimeout() throws Exception {
        String topic = createTopic("sink_stage_wait", 2);
        Sink sink = sink(topic, "stage_wait", Map.of("sink.send-timeout", "500ms",
                "sink.transaction.publish-timeout", "1s"));
        try {
            Stage crashed = new Stage(null);
            SinkWriter staging = sink.createWriter(new Context(crashed, "W"));
            for (long id = 0; id < 50; id++) {
                staging.write(Row.insert(id, id % 3, "c"));
            }
            staging.flush();
            List<byte[]> chunks = crashed.participant.stage("W");
            staging.close();
            SinkStage.Recovered recovered = new SinkStage.Recovered("W", chunks, System.currentTimeMillis(), 0);
            SinkWriter restored = sink.createWriter(new Context(new Stage(recovered), "V"));
            restored.close();
            await(Duration.ofSeconds(10), () -> storedCount(topic) >= 50, () -> "50 rows, got " + storedCount(topic));
            assertEquals(ids(0, 50), ids(readAll(topic)));
        } finally {
            sink.close();
        }
    }

    /** Rows are held until their checkpoint: past a bound the writer asks for one early, once per checkpoint. */
    @Test
    void aWriterHoldingManyRowsAsksForAnEarlyCheckpoint() throws Exception {
        String topic = createTopic("sink_stage_big", 1);
        Sink sink = sink(topic, "stage_big", Map.of());
        try {
            Stage stage = new Stage(null);
            SinkWriter w = sink.createWriter(new Context(stage, "B"));
            long id = 0;
            while (stage.checkpointRequests == 0) {
                w.write(Row.insert(id++, id % 5, PAD));
            }
            long bound = RocketMqStagedSinkWriter.CHECKPOINT_REQUEST_BYTES;
            assertTrue(id * (PAD.length() + 200) >= bound && id * PAD.length() < bound, "asked after " + id + " rows");
            for (int i = 0; i < 100; i++) {
                w.write(Row.insert(id++, id % 5, PAD));
            }
            assertEquals(1, stage.checkpointRequests, "asked once");
            w.flush();
            int chunks = stage.participant.stage("B").size();
            assertTrue(chunks >= 32 && chunks <= 34, "32 MiB in blocks of about 1 MiB: " + chunks);
            w.close();
        } finally {
            sink.close();
        }
    }

    private static Sink sink(String topic, String job, Map<String, String> options) {
        Map<String, String> o = new HashMap<>(options);
        o.put("topic", topic);
        o.put("sink.key-columns", "k");
        TableDescriptor t = table("staged_out", List.of(Column.physical("id", BIGINT), Column.physical("k", BIGINT),
                Column.physical("pad", STRING)), o);
        SinkTransactions noChecks = transactionId -> SinkTransactions.Outcome.UNKNOWN;
        ConnectorContext ctx = new DefaultConnectorContext(t, jobInfo(job, engineConfig("p1"), noChecks),
                new FormatRegistry(RocketMqStagedSinkWriterTest.class.getClassLoader()));
        return new RocketMqConnectorFactory().createSink(ctx);
    }

    private static List<Long> ids(long from, long to) {
        List<Long> ids = new ArrayList<>();
        for (long i = from; i < to; i++) {
            ids.add(i);
        }
        return ids;
    }

    private static List<Long> ids(List<MessageExt> messages) {
        List<Long> ids = new ArrayList<>();
        for (MessageExt m : messages) {
            ids.add(id(m));
        }
        ids.sort(Long::compare);
        return ids;
    }

    private static long id(MessageExt m) {
        return JSON.parseObject(RocketMqTestSupport.body(m)).getLongValue("id");
    }

    /** A task's stage for one writer: what it restored, and the writer that joined. */
    private static final class Stage implements SinkStage {
        final Recovered recovered;
        Participant participant;
        int checkpointRequests;

        Stage(Recovered recovered) {
            this.recovered = recovered;
        }

        @Override
        public Recovered join(Participant p) {
            participant = p;
            return recovered;
        }

        @Override
        public void requestCheckpoint() {
            checkpointRequests++;
        }
    }

    private static final class Context implements SinkWriterContext {
        final Stage stage;
        volatile String transactionId;

        Context(Stage stage, String transactionId) {
            this.stage = stage;
            this.transactionId = transactionId;
        }

        @Override
        public String taskId() {
            return "task-0";
        }

        @Override
        public int taskIndex() {
            return 0;
        }

        @Override
        public String transactionId() {
            return transactionId;
        }

        @Override
        public SinkStage sinkStage(String table) {
            return stage;
        }
    }
}
