package dev.rsql.runtime.connector.rocketmq;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.exec.DefaultConnectorContext;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.DataType;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.await;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.broker;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.createTopic;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.engineConfig;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.jobInfo;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.readAll;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.storedCount;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sink side, driven directly through the connector API. */
@ExtendWith(RocketMqTestSupport.class)
class RocketMqSinkTest {

    private static final DataType BIGINT = DataType.of(DataType.Kind.BIGINT);

    @Test
    void keysTagsAndPropertiesFromMetadataColumnsAndAcknowledgedFlush() throws Exception {
        String topic = createTopic("sink_meta", 4);
        TableDescriptor t = table("alerts", List.of(
                Column.physical("id", BIGINT),
                Column.physical("name", DataType.string()),
                Column.metadata("user_key", DataType.string(), "keys", false),
                Column.metadata("kind", DataType.string(), "tag", false),
                Column.metadata("region", DataType.string(), "region", false),
                Column.metadata("offset", BIGINT, "queue_offset", true)), Map.of("topic", topic));
        Sink sink = sink(t);
        int n = 3000;
        try {
            SinkWriter w = sink.createWriter(writerContext(0));
            for (int i = 0; i < n; i++) {
                RowKind kind = i == 7 ? RowKind.DELETE : RowKind.INSERT;
                w.write(new Row(kind, new Object[]{(long) i, "n" + i, "user-" + (i % 7), "T" + (i % 3), "eu", null}));
            }
            w.flush();
            // Everything acknowledged is in the commit log, below its write position at this moment.
            long writtenUpTo = broker().brokerController().getMessageStore().getMaxPhyOffset();
            w.close();
            await(Duration.ofSeconds(30), () -> storedCount(topic) >= n, () -> n + " messages, got " + storedCount(topic));
            List<MessageExt> messages = readAll(topic);
            assertEquals(n, messages.size());
            Map<String, Set<Integer>> queuesByKey = new HashMap<>();
            Map<String, Long> lastIdByKey = new HashMap<>();
            messages.sort(Comparator.comparingInt(MessageExt::getQueueId).thenComparingLong(MessageExt::getQueueOffset));
            for (MessageExt m : messages) {
                assertTrue(m.getCommitLogOffset() < writtenUpTo, "stored before flush() returned");
                JSONObject body = JSON.parseObject(RocketMqTestSupport.body(m));
                long id = body.getLongValue("id");
                Set<String> members = new HashSet<>(body.keySet());
                members.remove("op");
                assertEquals(Set.of("id", "name"), members, "only physical columns in the body");
                assertEquals(id == 7, body.containsKey("op"), "row kind flag only on the DELETE row");
                assertEquals("user-" + (id % 7), m.getKeys());
                assertEquals("T" + (id % 3), m.getTags());
                assertEquals("eu", m.getUserProperty("region"));
                queuesByKey.computeIfAbsent(m.getKeys(), k -> new HashSet<>()).add(m.getQueueId());
                Long last = lastIdByKey.put(m.getKeys(), id);
                assertTrue(last == null || last < id, "per-key order: " + last + " then " + id);
            }
            queuesByKey.forEach((k, qs) -> assertEquals(1, qs.size(), "key " + k + " on queues " + qs));
        } finally {
            sink.close();
        }
    }

    @Test
    void keyColumnsTagOptionsRoundRobinAndFailures() throws Exception {
        String topic = createTopic("sink_opts", 3);
        TableDescriptor t = table("scores", List.of(
                Column.physical("id", BIGINT),
                Column.physical("name", DataType.string()),
                Column.physical("category", DataType.string())),
                Map.of("topic", topic, "keyColumns", "id,name", "tagColumn", "category", "tag", "DEFAULT",
                        "sink.batch-size", "16"));
        Sink sink = sink(t);
        try {
            SinkWriter w = sink.createWriter(writerContext(1));
            for (int i = 0; i < 30; i++) {
                w.write(Row.insert((long) i, "n" + i, i % 2 == 0 ? "even" : null));
            }
            for (int i = 30; i < 60; i++) {
                w.write(Row.insert(null, null, "nokey"));   // no key: spread round-robin
            }
            w.flush();
            await("60 messages", Duration.ofSeconds(30), () -> storedCount(topic) >= 60);
            List<MessageExt> messages = readAll(topic);
            assertEquals(60, messages.size());
            Map<Integer, Integer> keylessPerQueue = new HashMap<>();
            for (MessageExt m : messages) {
                JSONObject body = JSON.parseObject(RocketMqTestSupport.body(m));
                if ("nokey".equals(body.getString("category"))) {
                    assertNull(m.getKeys());
                    assertEquals("nokey", m.getTags());
                    keylessPerQueue.merge(m.getQueueId(), 1, Integer::sum);
                } else {
                    long id = body.getLongValue("id");
                    assertEquals(id + "|n" + id, m.getKeys());
                    assertEquals(id % 2 == 0 ? "even" : "DEFAULT", m.getTags());
                }
            }
            assertEquals(Map.of(0, 10, 1, 10, 2, 10), keylessPerQueue, "round-robin over the 3 queues");

            // A message over the 4 MiB limit fails its send: flush reports it, and so does the next write.
            SinkWriter w2 = sink.createWriter(writerContext(2));
            w2.write(Row.insert(1L, "x".repeat(5 * 1024 * 1024), "big"));
            Exception e = assertThrows(Exception.class, w2::flush);
            assertTrue(e.getMessage().contains("topic " + topic), e.getMessage());
            assertThrows(Exception.class, () -> w2.write(Row.insert(2L, "small", "x")));
        } finally {
            sink.close();
        }
    }

    @Test
    void topicCreatedOnFirstMessageAndPropertiesMap() throws Exception {
        String topic = RocketMqTestSupport.unique("sink_auto");   // not created: the broker auto-creates it
        TableDescriptor t = table("auto", List.of(
                Column.physical("id", BIGINT),
                Column.metadata("props", DataType.map(DataType.string(), DataType.string()), "properties", false)),
                Map.of("topic", topic));
        Sink sink = sink(t);
        try {
            SinkWriter w = sink.createWriter(writerContext(0));
            for (int i = 0; i < 10; i++) {
                w.write(Row.insert((long) i, Map.of("source", "test", "n", Integer.toString(i))));
            }
            w.flush();
            await("10 messages in the new topic", Duration.ofSeconds(30), () -> storedCount(topic) >= 10);
            List<MessageExt> messages = readAll(topic);
            assertEquals(10, messages.size());
            for (MessageExt m : messages) {
                long id = JSON.parseObject(RocketMqTestSupport.body(m)).getLongValue("id");
                assertEquals("test", m.getUserProperty("source"));
                assertEquals(Long.toString(id), m.getUserProperty("n"));
            }
        } finally {
            sink.close();
        }
    }

    @Test
    void missingNameServerAndUnknownColumnsAreConfigErrors() {
        TableDescriptor t = table("out", List.of(Column.physical("id", BIGINT)), Map.of("topic", "x"));
        Map<String, String> noNamesrv = new HashMap<>(engineConfig("cfg"));
        noNamesrv.remove("rocketmq.namesrv");
        ConnectorContext ctx = new DefaultConnectorContext(t, jobInfo("cfg", noNamesrv),
                new FormatRegistry(getClass().getClassLoader()));
        Exception e = assertThrows(RuntimeException.class, () -> new RocketMqConnectorFactory().createSink(ctx));
        assertTrue(e.getMessage().contains("table out") && e.getMessage().contains("nameserver")
                && e.getMessage().contains("rocketmq.namesrv"), e.getMessage());

        TableDescriptor bad = table("out2", List.of(Column.physical("id", BIGINT)),
                Map.of("topic", "x", "sink.key-columns", "nope"));
        Exception e2 = assertThrows(RuntimeException.class, () -> sink(bad));
        assertTrue(e2.getMessage().contains("sink.key-columns") && e2.getMessage().contains("nope"), e2.getMessage());
        assertFalse(e2.getMessage().isEmpty());
    }

    private static Sink sink(TableDescriptor t) {
        ConnectorContext ctx = new DefaultConnectorContext(t, jobInfo("sink_test", engineConfig("sink-test")),
                new FormatRegistry(RocketMqSinkTest.class.getClassLoader()));
        return new RocketMqConnectorFactory().createSink(ctx);
    }

    private static SinkWriterContext writerContext(int index) {
        return new SinkWriterContext() {
            @Override
            public String taskId() {
                return "task-" + index;
            }

            @Override
            public int taskIndex() {
                return index;
            }
        };
    }
}
