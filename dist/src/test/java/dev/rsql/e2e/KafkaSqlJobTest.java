package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.PlanningException;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SQL jobs end to end on a real Kafka broker (KRaft, one combined node) started once in this JVM. */
class KafkaSqlJobTest {

    static final AtomicInteger SEQ = new AtomicInteger();
    static final DateTimeFormatter SQL_TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);
    static LocalKafka kafka;
    static KafkaProducer<String, String> producer;
    static Path stateDir;

    @BeforeAll
    static void startBroker(@TempDir Path dir) throws Exception {
        kafka = LocalKafka.start(dir.resolve("kafka"));
        stateDir = dir.resolve("state");
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG, 5), new StringSerializer(), new StringSerializer());
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (producer != null) {
            producer.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    static String topic(String base, int partitions) throws Exception {
        String t = base + "_" + SEQ.incrementAndGet();
        kafka.createTopic(t, partitions);
        return t;
    }

    static JobInstance start(String name, String script) throws Exception {
        Options config = new Options(Map.of("checkpoint.interval", "200ms", "worker.threads", "2",
                "instance.id", "it-" + UUID.randomUUID(), "state.dir", stateDir.toString()));
        JobInstance job = new JobInstance(new ScriptPlanner(new PlannerContext(config,
                KafkaSqlJobTest.class.getClassLoader(), n -> null)).plan(name, script).graph(),
                new EngineContext(config, KafkaSqlJobTest.class.getClassLoader()));
        job.start();
        return job;
    }

    static String with(String topic, String more) {
        return " WITH ('connector' = 'kafka', 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '"
                + kafka.bootstrapServers() + "'" + more + ")";
    }

    static void produce(List<ProducerRecord<String, String>> records) throws Exception {
        for (ProducerRecord<String, String> r : records) {
            producer.send(r);
        }
        producer.flush();
    }

    static List<ConsumerRecord<byte[], byte[]>> readUntil(String topic, int expected) {
        return kafka.readUntil(topic, expected);
    }

    static String value(ConsumerRecord<byte[], byte[]> r) {
        return JSON.parseObject(new String(r.value(), StandardCharsets.UTF_8)).toJSONString();
    }

    static Map<String, Integer> multiset(Collection<String> rows) {
        Map<String, Integer> m = new TreeMap<>();
        rows.forEach(r -> m.merge(r, 1, Integer::sum));
        return m;
    }

    static String order(int i) {
        String status = i % 5 == 0 ? "CANCELLED" : "PAID";
        return "{\"order_id\":" + i + ",\"customer\":\"c" + (i % 37) + "\",\"amount\":" + (i % 300) + ".5,\"status\":\""
                + status + "\"}";
    }

    /** The filter job's output for order i, or null when it filters the order out. */
    static String filtered(int i) {
        if (i % 5 == 0 || i % 300 <= 100) {
            return null;
        }
        return "{\"order_id\":" + i + ",\"customer\":\"c" + (i % 37) + "\",\"total\":" + (2 * (i % 300) + 1) + ".0}";
    }

    static List<ProducerRecord<String, String>> orders(String topic, int from, int to) {
        List<ProducerRecord<String, String>> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(new ProducerRecord<>(topic, "c" + (i % 37), order(i)));
        }
        return out;
    }

    static List<String> expectedFiltered(int to) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < to; i++) {
            if (filtered(i) != null) {
                out.add(filtered(i));
            }
        }
        return out;
    }

    static String filterScript(String in, String out, String sourceOptions) {
        return "CREATE TABLE orders (order_id BIGINT, customer STRING, amount DOUBLE, status STRING)\n"
                + with(in, sourceOptions) + ";\n"
                + "CREATE TABLE big_orders (order_id BIGINT, customer STRING, total DOUBLE)\n"
                + with(out, "") + ";\n"
                + "INSERT INTO big_orders SELECT order_id, customer, amount * 2 FROM orders\n"
                + " WHERE status <> 'CANCELLED' AND amount > 100;\n";
    }

    @Test
    void filterJobLosesNothingAndDuplicatesNothingAcrossStopAndRestart() throws Exception {
        String in = topic("orders", 4);
        String out = topic("big_orders", 3);
        String script = filterScript(in, out, "");
        produce(orders(in, 0, 10_000));

        JobInstance job = start("kafka_filter", script);
        List<String> expected = expectedFiltered(10_000);
        assertEquals(multiset(expected), multiset(readUntil(out, expected.size()).stream()
                .map(KafkaSqlJobTest::value).collect(Collectors.toList())), "first 10,000 orders");
        job.stop();
        assertEquals(JobInstance.State.STOPPED, job.state());
        // The stop committed the offsets to the job's consumer group.
        long committed = kafka.admin().listConsumerGroupOffsets("rsql_kafka_filter_orders")
                .partitionsToOffsetAndMetadata()
                .get().values().stream().mapToLong(o -> o.offset()).sum();
        assertEquals(10_000, committed, "committed offsets of the group");

        produce(orders(in, 10_000, 12_000));
        JobInstance restarted = start("kafka_filter", script);
        try {
            expected = expectedFiltered(12_000);
            List<ConsumerRecord<byte[], byte[]>> written = readUntil(out, expected.size());
            assertEquals(expected.size(), written.size(), "a graceful stop commits everything: no duplicates");
            assertEquals(multiset(expected), multiset(written.stream().map(KafkaSqlJobTest::value)
                    .collect(Collectors.toList())));
        } finally {
            restarted.stop();
        }
    }

    @Test
    void windowedCountFromManyPartitionsSurvivesARestart() throws Exception {
        int partitions = 4;
        String in = topic("events", partitions);
        String out = topic("window_counts", 2);
        String script = "CREATE TABLE ev (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)\n"
                + with(in, "") + ";\n"
                + "CREATE TABLE window_counts (k STRING, ws TIMESTAMP(3), c BIGINT)\n"
                + with(out, ", 'key.format' = 'json', 'key.fields' = 'k'") + ";\n"
                + "INSERT INTO window_counts SELECT k, window_start, COUNT(*)\n"
                + " FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' SECOND))\n"
                + " WHERE k <> 'end' GROUP BY k, window_start, window_end;\n";
        // Events a little out of order (within the watermark's 2 s), spread over the partitions.
        Random random = new Random(42);
        long base = 1_700_000_000_000L;
        int n = 6_000;
        List<ProducerRecord<String, String>> events = new ArrayList<>();
        Map<String, Integer> expected = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            String k = "k" + random.nextInt(7);
            long ts = base + i * 5L - random.nextInt(1_500);
            events.add(new ProducerRecord<>(in, random.nextInt(partitions), null,
                    "{\"k\":\"" + k + "\",\"ts\":" + ts + "}"));
            String row = "{\"k\":\"" + k + "\",\"ws\":\"" + SQL_TIMESTAMP.format(Instant.ofEpochMilli(ts - ts % 1000))
                    + "\",\"c\":";
            expected.merge(row, 1, Integer::sum);
        }
        List<String> expectedRows = expected.entrySet().stream().map(e -> e.getKey() + e.getValue() + "}")
                .collect(Collectors.toList());

        produce(events.subList(0, n / 2));
        JobInstance job = start("kafka_windows", script);
        Await.until("first windows written", Duration.ofSeconds(60), () -> !readUntil(out, 1).isEmpty());
        job.stop();
        // The rest, and an event far ahead on every partition so that every window closes.
        produce(events.subList(n / 2, n));
        List<ProducerRecord<String, String>> ends = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            ends.add(new ProducerRecord<>(in, p, null, "{\"k\":\"end\",\"ts\":" + (base + n * 5L + 60_000) + "}"));
        }
        produce(ends);
        JobInstance restarted = start("kafka_windows", script);
        try {
            List<ConsumerRecord<byte[], byte[]>> written = readUntil(out, expectedRows.size());
            assertEquals(multiset(expectedRows), multiset(written.stream().map(KafkaSqlJobTest::value)
                    .collect(Collectors.toList())), "each window counted once, nothing missing");
            for (ConsumerRecord<byte[], byte[]> r : written) {
                assertEquals(JSON.parseObject(new String(r.value(), StandardCharsets.UTF_8)).getString("k"),
                        JSON.parseObject(new String(r.key(), StandardCharsets.UTF_8)).getString("k"), "message key");
            }
        } finally {
            restarted.stop();
        }
    }

    /** Each changelog format read from a topic, written to another, read again: the same table. */
    @Test
    void changelogFormatsRoundTrip() throws Exception {
        Map<Long, String> expected = ChangelogRoundTrip.expectedTable();
        for (String format : ChangelogRoundTrip.FORMATS) {
            String in = topic("cdc_in", 1);
            String mid = topic("cdc_mid", 1);
            List<ProducerRecord<String, String>> records = new ArrayList<>();
            for (String m : ChangelogRoundTrip.messages(format)) {
                records.add(new ProducerRecord<>(in, m));
            }
            produce(records);
            String id = "kafka_" + in;
            JobInstance job = start("cdc_" + in, ChangelogRoundTrip.script(format,
                    (t, more) -> with(t, more + ", 'scan.startup.mode' = 'earliest-offset'"), in, mid, id));
            try {
                ChangelogRoundTrip.awaitTable(id, expected);
            } finally {
                job.stop();
            }
        }
    }

    /** CloudEvents in structured mode read, filtered, written as new events and read again; bad ones dead-lettered. */
    @Test
    void cloudEventsRoundTrip() throws Exception {
        String in = topic("ce_in", 2);
        String out = topic("ce_out", 2);
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (String e : CloudEventsRoundTrip.events()) {
            records.add(new ProducerRecord<>(in, e));
        }
        produce(records);
        String id = "ce_" + in;
        JobInstance job = start("ce_" + in, CloudEventsRoundTrip.script(
                (t, more) -> with(t, more + ", 'scan.startup.mode' = 'earliest-offset'"), in, out, id));
        try {
            CloudEventsRoundTrip.check(id);
        } finally {
            job.stop();
        }
    }

    /** Runs a job from topic {@code in} into collect sink {@code id}; returns the order ids read. */
    static List<Long> idsRead(String id, int expected) {
        Await.until("rows in " + id, Duration.ofSeconds(60), () -> CollectSinkFactory.rows(id).size() >= expected);
        return CollectSinkFactory.rows(id).stream().map(r -> (Long) r.get(0)).sorted().collect(Collectors.toList());
    }

    static String collectScript(String in, String id, String sourceOptions) {
        return "CREATE TABLE orders (order_id BIGINT, customer STRING, amount DOUBLE, status STRING)\n"
                + with(in, sourceOptions) + ";\n"
                + "CREATE TABLE seen (order_id BIGINT) WITH ('connector' = 'collect', 'id' = '" + id + "');\n"
                + "INSERT INTO seen SELECT order_id FROM orders;\n";
    }

    static List<Long> range(long from, long to) {
        List<Long> out = new ArrayList<>();
        for (long i = from; i < to; i++) {
            out.add(i);
        }
        return out;
    }

    @Test
    void startupModes() throws Exception {
        String in = topic("startup", 1);
        long base = 1_700_000_000_000L;
        List<ProducerRecord<String, String>> first = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            first.add(new ProducerRecord<>(in, 0, base + i * 1000L, null, order(i)));
        }
        produce(first);

        String id = "earliest_" + SEQ.incrementAndGet();
        JobInstance job = start("kafka_earliest", collectScript(in, id, ", 'scan.startup.mode' = 'earliest-offset'"));
        try {
            assertEquals(range(0, 100), idsRead(id, 100));
        } finally {
            job.stop();
        }

        id = "timestamp_" + SEQ.incrementAndGet();
        job = start("kafka_timestamp", collectScript(in, id, ", 'scan.startup.mode' = 'timestamp', "
                + "'scan.startup.timestamp-millis' = '" + (base + 60_000) + "'"));
        try {
            assertEquals(range(60, 100), idsRead(id, 40));
        } finally {
            job.stop();
        }

        id = "specific_" + SEQ.incrementAndGet();
        job = start("kafka_specific", collectScript(in, id, ", 'scan.startup.mode' = 'specific-offsets', "
                + "'scan.startup.specific-offsets' = 'partition:0,offset:85'"));
        try {
            assertEquals(range(85, 100), idsRead(id, 15));
        } finally {
            job.stop();
        }

        // latest-offset: only what comes after the partition was assigned.
        id = "latest_" + SEQ.incrementAndGet();
        job = start("kafka_latest", collectScript(in, id, ", 'scan.startup.mode' = 'latest-offset', "
                + "'properties.group.id' = 'latest_group'"));
        try {
            Await.until("partition assigned", Duration.ofSeconds(30), () -> assigned("latest_group") == 1);
            produce(List.of(new ProducerRecord<>(in, 0, null, order(100)),
                    new ProducerRecord<>(in, 0, null, order(101))));
            assertEquals(List.of(100L, 101L), idsRead(id, 2));
        } finally {
            job.stop();
        }

        // group-offsets (the default) resumes where the group committed: the latest job's group committed 102.
        id = "group_" + SEQ.incrementAndGet();
        produce(List.of(new ProducerRecord<>(in, 0, null, order(102))));
        job = start("kafka_group", collectScript(in, id, ", 'scan.startup.mode' = 'group-offsets', "
                + "'properties.group.id' = 'latest_group'"));
        try {
            assertEquals(List.of(102L), idsRead(id, 1));
        } finally {
            job.stop();
        }
    }

    /** Partitions assigned to the members of a consumer group once it is stable. */
    static int assigned(String group) {
        try {
            ConsumerGroupDescription d = kafka.admin().describeConsumerGroups(List.of(group)).all().get().get(group);
            if (d.groupState() != GroupState.STABLE) {
                return 0;
            }
            return d.members().stream().mapToInt(m -> m.assignment().topicPartitions().size()).sum();
        } catch (Exception e) {
            return 0;
        }
    }

    @Test
    void metadataColumnsAndKeyFields() throws Exception {
        String in = topic("meta_in", 2);
        String out = topic("meta_out", 1);
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            RecordHeaders headers = new RecordHeaders();
            headers.add("trace", ("t" + i).getBytes(StandardCharsets.UTF_8));
            records.add(new ProducerRecord<>(in, i % 2, 1_700_000_000_000L + i, "{\"id\":" + i + "}",
                    "{\"name\":\"n" + i + "\"}", headers));
        }
        produce(records);
        String keyOptions = ", 'key.format' = 'json', 'key.fields' = 'id', 'value.fields-include' = 'EXCEPT_KEY'";
        String script = "CREATE TABLE src (id BIGINT, name STRING,\n"
                + "  t STRING METADATA FROM 'topic' VIRTUAL, p INT METADATA FROM 'partition' VIRTUAL,\n"
                + "  o BIGINT METADATA FROM 'offset' VIRTUAL, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',\n"
                + "  h MAP<STRING, BYTES> METADATA FROM 'headers')\n"
                + with(in, keyOptions) + ";\n"
                + "CREATE TABLE dst (id BIGINT, name STRING, t STRING, p INT, o BIGINT,\n"
                + "  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', h MAP<STRING, BYTES> METADATA FROM 'headers')\n"
                + with(out, keyOptions) + ";\n"
                + "INSERT INTO dst SELECT id, name, t, p, o, ts, h FROM src;\n";
        JobInstance job = start("kafka_meta", script);
        try {
            List<ConsumerRecord<byte[], byte[]>> written = readUntil(out, 20);
            assertEquals(20, written.size());
            Map<Long, Long> offsetsInPartition = new TreeMap<>();
            for (ConsumerRecord<byte[], byte[]> r : written) {
                long id = JSON.parseObject(new String(r.key(), StandardCharsets.UTF_8)).getLongValue("id");
                JSONObject v = JSON.parseObject(new String(r.value(), StandardCharsets.UTF_8));
                assertTrue(!v.containsKey("id"), "EXCEPT_KEY: the id is only in the key: " + v);
                assertEquals("n" + id, v.getString("name"));
                assertEquals(in, v.getString("t"));
                assertEquals(id % 2, v.getLongValue("p"));
                offsetsInPartition.put(id, v.getLongValue("o"));
                assertEquals(1_700_000_000_000L + id, r.timestamp(), "timestamp written from the metadata column");
                assertArrayEquals(("t" + id).getBytes(StandardCharsets.UTF_8), r.headers().lastHeader("trace").value());
            }
            for (long id = 0; id < 20; id++) {
                assertEquals(id / 2, offsetsInPartition.get(id), "offset of id " + id + " in its partition");
            }
        } finally {
            job.stop();
        }
    }

    @Test
    void twoProcessesOfOneGroupSharePartitionsAndLoseNothing() throws Exception {
        String in = topic("shared", 4);
        String out = topic("shared_out", 2);
        // Both jobs join one consumer group and resume from its committed offsets when partitions move.
        String options = ", 'properties.group.id' = 'shared_group', 'scan.startup.mode' = 'group-offsets'";
        produce(orders(in, 0, 4_000));
        JobInstance a = start("kafka_shared_a", filterScript(in, out, options));
        JobInstance b = null;
        try {
            Await.until("first results", Duration.ofSeconds(60), () -> !readUntil(out, 1).isEmpty());
            b = start("kafka_shared_b", filterScript(in, out, options));
            Await.until("partitions split between the two", Duration.ofSeconds(60),
                    () -> members("shared_group") == 2 && assigned("shared_group") == 4);
            produce(orders(in, 4_000, 8_000));
            List<String> expected = expectedFiltered(8_000);
            List<String> written = readUntil(out, expected.size()).stream().map(KafkaSqlJobTest::value)
                    .collect(Collectors.toList());
            Map<String, Integer> got = multiset(written);
            for (String row : expected) {
                assertTrue(got.containsKey(row), "missing: " + row);
            }
            // At least once: a partition moved between checkpoints may replay what followed its last checkpoint.
            assertEquals(multiset(expected).keySet(), got.keySet());
        } finally {
            a.stop();
            if (b != null) {
                b.stop();
            }
        }
    }

    static int members(String group) {
        try {
            return kafka.admin().describeConsumerGroups(List.of(group)).all().get().get(group).members().size();
        } catch (Exception e) {
            return 0;
        }
    }

    @Test
    void upsertKafkaSinkHoldsTheFinalCountPerKey() throws Exception {
        String in = topic("clicks", 3);
        String out = topic("click_counts", 2);
        Random random = new Random(7);
        Map<String, Long> expected = new TreeMap<>();
        List<ProducerRecord<String, String>> clicks = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            String user = "u" + random.nextInt(50);
            expected.merge(user, 1L, Long::sum);
            clicks.add(new ProducerRecord<>(in, user, "{\"order_id\":" + i + ",\"customer\":\"" + user + "\"}"));
        }
        produce(clicks);
        String script = "CREATE TABLE orders (order_id BIGINT, customer STRING)\n" + with(in, "") + ";\n"
                + "CREATE TABLE counts (customer STRING, c BIGINT, PRIMARY KEY (customer) NOT ENFORCED)\n"
                + " WITH ('connector' = 'upsert-kafka', 'topic' = '" + out + "', 'properties.bootstrap.servers' = '"
                + kafka.bootstrapServers() + "', 'key.format' = 'json', 'value.format' = 'json');\n"
                + "INSERT INTO counts SELECT customer, COUNT(*) FROM orders GROUP BY customer;\n";
        JobInstance job = start("kafka_upsert", script);
        try {
            Map<String, Long> latest = new TreeMap<>();
            Await.until(() -> "final counts, have " + latest, Duration.ofSeconds(60), () -> {
                latest.clear();
                // Records of one key are in one partition, in order: the last one is the key's value.
                for (ConsumerRecord<byte[], byte[]> r : readUntil(out, 0)) {
                    String key = JSON.parseObject(new String(r.key(), StandardCharsets.UTF_8)).getString("customer");
                    JSONObject v = JSON.parseObject(new String(r.value(), StandardCharsets.UTF_8));
                    assertEquals(key, v.getString("customer"));
                    assertFalse(v.containsKey("op"), "an upsert value carries no change flag: " + v);
                    latest.put(key, v.getLongValue("c"));
                }
                return latest.equals(expected);
            });
        } finally {
            job.stop();
        }
    }

    @Test
    void sinkPartitioners() throws Exception {
        String in = topic("part_in", 1);
        produce(orders(in, 0, 300));
        for (String partitioner : List.of("round-robin", "fixed", "default")) {
            String out = topic("part_out", 3);
            String script = "CREATE TABLE orders (order_id BIGINT, customer STRING, amount DOUBLE, status STRING)\n"
                    + with(in, ", 'scan.startup.mode' = 'earliest-offset'") + ";\n"
                    + "CREATE TABLE copy (order_id BIGINT, customer STRING)\n"
                    + with(out, ", 'sink.partitioner' = '" + partitioner + "', 'key.format' = 'json', "
                    + "'key.fields' = 'customer'") + ";\n"
                    + "INSERT INTO copy SELECT order_id, customer FROM orders;\n";
            JobInstance job = start("kafka_part_" + partitioner.replace('-', '_'), script);
            try {
                Map<Integer, Integer> perPartition = new TreeMap<>();
                Map<String, java.util.Set<Integer>> partitionsOfKey = new TreeMap<>();
                for (ConsumerRecord<byte[], byte[]> r : readUntil(out, 300)) {
                    perPartition.merge(r.partition(), 1, Integer::sum);
                    partitionsOfKey.computeIfAbsent(new String(r.key(), StandardCharsets.UTF_8),
                            k -> new java.util.TreeSet<>()).add(r.partition());
                }
                assertEquals(300, perPartition.values().stream().mapToInt(Integer::intValue).sum(), partitioner);
                switch (partitioner) {
                    case "round-robin":
                        assertEquals(Map.of(0, 100, 1, 100, 2, 100), perPartition, "spread evenly, keys ignored");
                        break;
                    case "fixed":
                        assertEquals(1, perPartition.size(), "the one task writes one partition: " + perPartition);
                        break;
                    default:
                        assertTrue(partitionsOfKey.values().stream().allMatch(ps -> ps.size() == 1),
                                "one partition per key: " + partitionsOfKey);
                        assertTrue(perPartition.size() > 1, "keys hashed over the partitions: " + perPartition);
                }
            } finally {
                job.stop();
            }
        }
    }

    /** Mistakes in a Kafka table's options fail at planning, at the table's position, naming the option. */
    @Test
    void badOptionsFailAtPlanTimeWithoutShowingThePassword() {
        String jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" "
                + "password=\"kafka-s3cret\";";
        String[][] cases = {
                {"'scan.startup.mode' = 'earliest'", "scan.startup.mode"},
                {"'scan.startup.mode' = 'timestamp'", "scan.startup.timestamp-millis"},
                {"'scan.startup.mode' = 'specific-offsets', 'scan.startup.specific-offsets' = 'partition:x'",
                        "scan.startup.specific-offsets"},
                {"'key.fields' = 'nope', 'key.format' = 'json'", "nope"},
                {"'key.fields' = 'id'", "key.format"},
                {"'value.fields-include' = 'SOME'", "value.fields-include"},
                {"'format' = 'avro-nope'", "avro-nope"},
        };
        for (String[] c : cases) {
            String script = "CREATE TABLE src (id BIGINT, name STRING) WITH ('connector' = 'kafka', 'topic' = 't',\n"
                    + "  'properties.bootstrap.servers' = 'localhost:1', 'properties.sasl.jaas.config' = '" + jaas
                    + "', " + c[0] + ");\n"
                    + "CREATE TABLE dst (id BIGINT) WITH ('connector' = 'print');\n"
                    + "INSERT INTO dst SELECT id FROM src;\n";
            PlanningException e = assertThrows(PlanningException.class, () -> plan(script), c[0]);
            assertTrue(e.getMessage().startsWith("line 2, column "), e.getMessage());
            assertTrue(e.getMessage().contains(c[1]), "'" + c[1] + "' missing in: " + e.getMessage());
            assertFalse(e.getMessage().contains("kafka-s3cret"), e.getMessage());
        }
        String sinkScript = "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '1');\n"
                + "CREATE TABLE dst (id BIGINT) WITH ('connector' = 'kafka', 'topic' = 't',\n"
                + "  'properties.bootstrap.servers' = 'localhost:1', 'sink.delivery-guarantee' = 'exactly-once');\n"
                + "INSERT INTO dst SELECT id FROM src;\n";
        PlanningException e = assertThrows(PlanningException.class, () -> plan(sinkScript));
        assertTrue(e.getMessage().startsWith("line 3, column ") && e.getMessage().contains("sink.delivery-guarantee"),
                e.getMessage());
        String explained = new ScriptPlanner(new PlannerContext(Options.empty(), getClass().getClassLoader(),
                n -> null)).plan("kafka_secret", "CREATE TABLE src (id BIGINT) WITH ('connector' = 'kafka', "
                + "'topic' = 't', 'properties.bootstrap.servers' = 'localhost:1', 'properties.sasl.jaas.config' = '"
                + jaas + "');\nCREATE TABLE dst (id BIGINT) WITH ('connector' = 'print');\n"
                + "INSERT INTO dst SELECT id FROM src;\n").graph().explain();
        assertFalse(explained.contains("kafka-s3cret"), explained);
    }

    static void plan(String script) {
        new ScriptPlanner(new PlannerContext(Options.empty(), KafkaSqlJobTest.class.getClassLoader(), n -> null))
                .plan("kafka_check", script);
    }
}
