package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.types.DataType;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.await;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.committedOffset;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.createTopic;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.engineConfig;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.runningTasks;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.send;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.startJob;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.table;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The source side: metadata columns, tag filters, start positions, offsets and malformed records. */
@ExtendWith(RocketMqTestSupport.class)
class RocketMqSourceTest {

    private static final DataType BIGINT = DataType.of(DataType.Kind.BIGINT);

    // ---- metadata columns, Blink HEADER columns, tag filter ----

    @Test
    void metadataAndHeaderColumnsWithTagFilter() throws Exception {
        String topic = createTopic("meta", 2);
        List<SendResult> sent = new ArrayList<>();
        List<Long> sentAt = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Message m = new Message(topic, i % 2 == 0 ? "A" : "B", "key-" + i,
                    ("{\"id\":" + i + ",\"name\":\"n" + i + "\"}").getBytes(StandardCharsets.UTF_8));
            m.putUserProperty("region", "eu-" + i);
            m.putUserProperty("TRACE_ID", "trace-" + i);
            sentAt.add(System.currentTimeMillis());
            sent.add(send(m, (i / 2) % 2));
        }

        List<Column> columns = List.of(
                Column.physical("id", BIGINT),
                Column.physical("name", DataType.string()),
                Column.metadata("tag", DataType.string(), "tag", true),
                Column.metadata("msg_keys", DataType.string(), "keys", true),
                Column.metadata("qid", DataType.of(DataType.Kind.INT), "queue_id", true),
                Column.metadata("off", BIGINT, "queue_offset", true),
                Column.metadata("born", DataType.withPrecision(DataType.Kind.TIMESTAMP_LTZ, 3, 0), "born_timestamp", true),
                Column.metadata("born_local", DataType.timestamp(3), "bornTimestamp", true),
                Column.metadata("stored", BIGINT, "store_timestamp", true),
                Column.metadata("msg_id", DataType.string(), "msgId", true),
                Column.metadata("region", DataType.string(), "region", true),
                // Blink HEADER columns: the key is the column name; matched case-insensitively, __x__ means x.
                Column.metadata("trace_id", DataType.string(), "trace_id", true),
                Column.metadata("__tag__", DataType.string(), "__tag__", true),
                Column.metadata("props", DataType.map(DataType.string(), DataType.string()), "properties", true));
        TableDescriptor source = table("events", columns, Map.of("topic", topic, "tag", "A"));
        String collectId = unique("meta");
        TableDescriptor sink = collect(collectId, columns);

        GraphBuilder b = new GraphBuilder(unique("meta_job"));
        b.source(source).sinkTo(sink);
        Map<String, String> config = engineConfig("meta");
        config.put("table.local-time-zone", "Asia/Shanghai");
        JobInstance job = startJob(b.build(), config);
        await("4 tagged rows", Duration.ofSeconds(30), () -> CollectSinkFactory.rows(collectId).size() >= 4);
        job.stop();

        List<Row> rows = CollectSinkFactory.rows(collectId);
        assertEquals(4, rows.size(), "only tag A: " + rows);
        long shanghai = TimeUnit.HOURS.toMillis(8);
        for (Row row : rows) {
            Object[] r = row.fields();
            int i = ((Long) r[0]).intValue();
            assertEquals(0, i % 2, "tag filter lets only A through: " + row);
            SendResult s = sent.get(i);
            assertEquals("n" + i, r[1]);
            assertEquals("A", r[2]);
            assertEquals("key-" + i, r[3]);
            assertEquals(s.getMessageQueue().getQueueId(), r[4]);
            assertEquals(s.getQueueOffset(), r[5]);
            long born = (Long) r[6];
            assertTrue(born >= sentAt.get(i) - 5 && born <= sentAt.get(i) + 5_000, "born " + born);
            assertEquals(born + shanghai, r[7], "TIMESTAMP is the wall clock of table.local-time-zone");
            assertTrue((Long) r[8] >= born, "store timestamp");
            assertEquals(s.getMsgId(), r[9]);
            assertEquals("eu-" + i, r[10]);
            assertEquals("trace-" + i, r[11]);
            assertEquals("A", r[12]);
            @SuppressWarnings("unchecked")
            Map<String, String> props = (Map<String, String>) r[13];
            assertEquals("eu-" + i, props.get("region"));
            assertEquals("trace-" + i, props.get("TRACE_ID"));
            assertFalse(props.containsKey("TAGS") || props.containsKey("KEYS") || props.containsKey("UNIQ_KEY"),
                    "system properties are not user properties: " + props);
        }
    }

    // ---- start positions ----

    @Test
    void startupModesApplyOnlyWithoutCommittedOffsets() throws Exception {
        String topic = createTopic("modes", 2);
        for (int i = 0; i < 4; i++) {
            send(json(topic, i), i % 2);
        }
        // A timestamp strictly after every message of the first batch and at or before the second.
        long lastStore = RocketMqTestSupport.readAll(topic).stream().mapToLong(m -> m.getStoreTimestamp()).max()
                .orElseThrow();
        await("the clock to pass the first batch", Duration.ofSeconds(5),
                () -> System.currentTimeMillis() > lastStore + 1);
        long ts = System.currentTimeMillis();
        for (int i = 4; i < 8; i++) {
            send(json(topic, i), i % 2);
        }

        String earliestGroup = unique("g_earliest");
        assertEquals(range(0, 8), run(topic, earliestGroup, Map.of("scan.startup.mode", "earliest"), 8, null));

        String tsGroup = unique("g_ts");
        assertEquals(range(4, 8), run(topic, tsGroup,
                Map.of("scan.startup.mode", "timestamp", "scan.startup.timestamp-millis", Long.toString(ts)), 4, null));

        // latest: nothing that is already there; what arrives after the queues were assigned.
        String latestGroup = unique("g_latest");
        assertEquals(range(8, 10), run(topic, latestGroup, Map.of("scan.startup.mode", "latest"), 2, () -> {
            for (int i = 8; i < 10; i++) {
                send(json(topic, i), i % 2);
            }
        }));

        // Committed offsets win over the mode: each group resumes where it stopped.
        assertEquals(range(8, 10), run(topic, earliestGroup, Map.of("scan.startup.mode", "latest"), 2, null));
        assertEquals(range(8, 10), run(topic, tsGroup, Map.of("scan.startup.mode", "earliest"), 2, null));
        // Blink's startTime alone implies the timestamp mode (a fresh group); it has second precision, in the
        // engine's time zone (the system zone here).
        String blinkGroup = unique("g_blink");
        java.time.LocalDateTime startTime = java.time.Instant.ofEpochMilli(ts - 1000).atZone(ZoneId.systemDefault())
                .toLocalDateTime().withNano(0);
        long startMillis = startTime.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
        Set<Long> expectedFromStartTime = new TreeSet<>();
        for (var m : RocketMqTestSupport.readAll(topic)) {
            if (m.getStoreTimestamp() >= startMillis) {
                expectedFromStartTime.add(com.alibaba.fastjson2.JSON.parseObject(RocketMqTestSupport.body(m)).getLong("id"));
            }
        }
        String text = startTime.format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
        assertEquals(expectedFromStartTime, run(topic, blinkGroup, Map.of("startTime", text),
                expectedFromStartTime.size(), null), "startTime " + text);
    }

    @Test
    void aSmallQueueBufferPausesAndResumesItsQueueWithoutLosingOrRepeatingMessages() throws Exception {
        String topic = createTopic("paused", 2);
        int n = 600;
        for (int i = 0; i < n; i++) {
            send(json(topic, i), i % 2);
        }
        // Every poll (up to 64 messages) fills a buffer of 16: each queue is paused and resumed many times.
        assertEquals(range(0, n), run(topic, unique("g_paused"), Map.of("scan.startup.mode", "earliest",
                "scan.queue-buffer-size", "16", "pullBatchSize", "64"), n, null));
    }

    /**
     * Runs the source with the given group and options into a collect sink until {@code expected} rows arrived
     * (running {@code whileAssigned} once every queue is assigned), stops it, and returns the ids read.
     */
    private Set<Long> run(String topic, String group, Map<String, String> options, int expected, Step whileAssigned)
            throws Exception {
        Map<String, String> opts = new LinkedHashMap<>(options);
        opts.put("topic", topic);
        opts.put("consumerGroup", group);
        List<Column> columns = List.of(Column.physical("id", BIGINT), Column.physical("name", DataType.string()));
        String collectId = unique("modes");
        GraphBuilder b = new GraphBuilder(unique("modes_job"));
        b.source(table("t", columns, opts)).sinkTo(collect(collectId, columns));
        JobInstance job = startJob(b.build(), engineConfig(unique("modes")));
        try {
            if (whileAssigned != null) {
                await("both queues assigned", Duration.ofSeconds(30), () -> runningTasks(job) == 2);
                whileAssigned.run();
            }
            await(Duration.ofSeconds(30), () -> CollectSinkFactory.rows(collectId).size() >= expected,
                    () -> expected + " rows for group " + group + ", got " + CollectSinkFactory.rows(collectId));
        } finally {
            job.stop();
        }
        List<Row> rows = CollectSinkFactory.rows(collectId);
        assertEquals(expected, rows.size(), "group " + group + " read " + rows);
        return rows.stream().map(r -> (Long) r.get(0)).collect(Collectors.toCollection(TreeSet::new));
    }

    interface Step {
        void run() throws Exception;
    }

    // ---- malformed records ----

    @Test
    void malformedRecordFailsTheJobAndIsNotCommitted() throws Exception {
        String topic = createTopic("bad", 1);
        for (int i = 0; i < 10; i++) {
            String body = i == 5 ? "{\"id\":\"not-a-number\",\"name\":\"bad\"}" : "{\"id\":" + i + ",\"name\":\"n" + i + "\"}";
            send(new Message(topic, body.getBytes(StandardCharsets.UTF_8)), 0);
        }
        String group = unique("g_bad");
        List<Column> columns = List.of(Column.physical("id", BIGINT), Column.physical("name", DataType.string()));
        TableDescriptor source = table("orders", columns, Map.of("topic", topic, "consumerGroup", group));

        String failId = unique("bad_fail");
        GraphBuilder b = new GraphBuilder(unique("bad_job"));
        b.source(source, ErrorPolicy.FAIL, null).sinkTo(collect(failId, columns));
        JobInstance job = startJob(b.build(), engineConfig("bad-1"));
        assertTrue(job.awaitTermination(Duration.ofSeconds(30)), "the job should fail");
        assertEquals(JobInstance.State.FAILED, job.state());
        String message = String.valueOf(job.failure().getMessage());
        assertTrue(message.contains("topic " + topic), message);
        assertTrue(message.contains("queue 0"), message);
        assertTrue(message.contains("offset 5"), message);
        assertTrue(message.contains("'id'"), message);
        long committed = committedOffset(group, topic, 0);
        assertTrue(committed <= 5, "committed offset " + committed + " must stay before the bad record at 5");

        String skipId = unique("bad_skip");
        GraphBuilder b2 = new GraphBuilder(unique("bad_job_skip"));
        b2.source(source, ErrorPolicy.SKIP, null).sinkTo(collect(skipId, columns));
        JobInstance job2 = startJob(b2.build(), engineConfig("bad-2"));
        await("rows after the bad record", Duration.ofSeconds(30),
                () -> CollectSinkFactory.rows(skipId).stream().anyMatch(r -> (Long) r.get(0) == 9L));
        await("the offset after the last record to be committed", Duration.ofSeconds(30),
                () -> committedOffset(group, topic, 0) == 10);
        long skipped = job2.status().tasks.stream().mapToLong(t -> t.skipped).sum();
        job2.stop();
        assertEquals(1, skipped, "the malformed record is skipped once");

        Set<Long> seen = new TreeSet<>();
        CollectSinkFactory.rows(failId).forEach(r -> seen.add((Long) r.get(0)));
        CollectSinkFactory.rows(skipId).forEach(r -> seen.add((Long) r.get(0)));
        Set<Long> expected = range(0, 10);
        expected.remove(5L);
        assertEquals(expected, seen);
        Map<Long, Integer> secondRun = new HashMap<>();
        CollectSinkFactory.rows(skipId).forEach(r -> secondRun.merge((Long) r.get(0), 1, Integer::sum));
        for (long id = 6; id < 10; id++) {
            assertEquals(1, secondRun.get(id), "id " + id + " exactly once after the restart");
        }
    }

    // ---- helpers ----

    private static Message json(String topic, int id) {
        return new Message(topic, ("{\"id\":" + id + ",\"name\":\"n" + id + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    private static Set<Long> range(long from, long to) {
        Set<Long> s = new TreeSet<>();
        for (long i = from; i < to; i++) {
            s.add(i);
        }
        return s;
    }

    static TableDescriptor collect(String id, List<Column> columns) {
        List<Column> physical = new ArrayList<>();
        for (Column c : columns) {
            physical.add(Column.physical(c.name(), c.type()));
        }
        return new TableDescriptor("out_" + id, new TableSchema(physical, List.of()), "collect",
                new Options(Map.of("id", id)));
    }
}
