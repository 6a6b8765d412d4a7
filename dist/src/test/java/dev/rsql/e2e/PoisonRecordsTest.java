package dev.rsql.e2e;

import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Records written to hurt a job, read by SQL jobs from a file and from RocketMQ: 10,000 levels of nesting in a
 * declared and in an undeclared member, a record over the size limit, JSON that is not quite JSON, invalid UTF-8.
 * Under {@code skip} every good row arrives and each bad record is dead-lettered with its position; under
 * {@code fail} the job stops naming table, position and field, and a second run stops at the same record.
 */
@ExtendWith(RocketMqTestSupport.class)
class PoisonRecordsTest {

    private static final int MAX_RECORD_BYTES = 100_000;
    private static final int MAX_DEAD_LETTER_BYTES = 30_000;

    /** A bad record, and what its dead-letter error must say. */
    record Bad(byte[] payload, String error) {
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String good(int id) {
        return "{\"id\": " + id + ", \"name\": \"n" + id + "\"}";
    }

    /** The bad records, in the order they appear among the good ones (the first names a field). */
    static List<Bad> badRecords(int oversize) {
        ByteArrayOutputStream invalid = new ByteArrayOutputStream();
        invalid.writeBytes(utf8("{\"id\": 107, \"name\": \"caf"));
        invalid.write(0xC3);    // a lead byte without its continuation
        invalid.writeBytes(utf8("\"}"));
        return List.of(
                new Bad(utf8("{\"id\": 100, \"name\": " + "[".repeat(10_000) + "]".repeat(10_000) + "}"),
                        "field 'name': nested deeper than 1000 levels"),
                new Bad(utf8("{\"id\": 101, \"junk\": " + "{\"k\": ".repeat(10_000) + "1" + "}".repeat(10_000)
                        + ", \"name\": \"x\"}"), "field 'junk': nested deeper than 1000 levels"),
                new Bad(utf8("{\"id\": 102, \"name\": \"" + "x".repeat(oversize) + "\"}"),
                        "more than the limit of " + MAX_RECORD_BYTES + " (option 'scan.max-record-bytes')"),
                new Bad(utf8("{\"id\": 103 \"name\": \"x\"}"), "a comma is missing between members"),
                new Bad(utf8("{\"id\": 104, \"name\": \"x\",}"), "a comma before '}'"),
                new Bad(utf8("{\"id\": 105, \"name\": 'x'}"), "a single-quoted string"),
                new Bad(utf8("{id: 106, \"name\": \"x\"}"), "malformed JSON"),
                new Bad(invalid.toByteArray(), "invalid UTF-8 at byte 24"));
    }

    /** Good records 0..n-1 with the bad ones spread among them; returns the index of each bad record. */
    static List<byte[]> interleave(int goodCount, List<Bad> bad, List<Integer> badIndexes) {
        List<byte[]> all = new ArrayList<>();
        int b = 0;
        for (int i = 0; i < goodCount; i++) {
            if (i % 5 == 2 && b < bad.size()) {
                badIndexes.add(all.size());
                all.add(bad.get(b++).payload());
            }
            all.add(utf8(good(i)));
        }
        return all;
    }

    static String script(String source, String policy, String runId) {
        return "CREATE TABLE src (id INT, name STRING) WITH (" + source + ", 'scan.error-policy' = '" + policy + "',"
                + " 'scan.dead-letter-table' = 'dead', 'scan.max-record-bytes' = '" + MAX_RECORD_BYTES + "',"
                + " 'scan.dead-letter.max-payload-bytes' = '" + MAX_DEAD_LETTER_BYTES + "');\n"
                + "CREATE TABLE dead (table_name STRING, `position` STRING, error STRING, payload BYTES,"
                + " payload_bytes BIGINT)"
                + " WITH ('connector' = 'collect', 'id' = '" + runId + "-dead');\n"
                + "CREATE TABLE good_rows (id INT, name STRING) WITH ('connector' = 'collect', 'id' = '" + runId + "-out');\n"
                + "INSERT INTO good_rows SELECT id, name FROM src;\n";
    }

    static JobInstance start(String name, String script, Path stateDir) throws Exception {
        Options config = new Options(Map.of("rocketmq.namesrv", RocketMqTestSupport.namesrv(),
                "checkpoint.interval", "100ms", "worker.threads", "2", "state.dir", stateDir.toString()));
        JobInstance job = new JobInstance(new ScriptPlanner(new PlannerContext(config,
                PoisonRecordsTest.class.getClassLoader(), n -> null)).plan(name, script).graph(),
                new EngineContext(config, PoisonRecordsTest.class.getClassLoader()));
        job.start();
        return job;
    }

    static List<Integer> ids(String sinkId) {
        return CollectSinkFactory.rows(sinkId).stream().map(r -> (Integer) r.get(0)).sorted()
                .collect(Collectors.toList());
    }

    static List<Integer> range(int n) {
        List<Integer> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(i);
        }
        return l;
    }

    /** Every bad record dead-lettered once, at its position, with its error. */
    static void assertDeadLetters(String runId, List<Bad> bad, List<String> positions) {
        Map<String, Row> byPosition = new TreeMap<>();
        for (Row r : CollectSinkFactory.rows(runId + "-dead")) {
            assertEquals(null, byPosition.put((String) r.get(1), r), "dead-lettered twice: " + r.get(1));
        }
        assertEquals(new TreeMap<>(positions.stream().collect(Collectors.toMap(p -> p, p -> p))).keySet(),
                byPosition.keySet());
        for (int i = 0; i < bad.size(); i++) {
            Row r = byPosition.get(positions.get(i));
            assertEquals("src", r.get(0));
            String error = (String) r.get(2);
            assertTrue(error.contains(bad.get(i).error()), error + " should say " + bad.get(i).error());
            assertTrue(error.length() < 600, error);
            // the start of the payload as read, at most the dead-letter limit, and the size read (the file source
            // reads no more than the record limit of a line over it)
            byte[] payload = (byte[]) r.get(3);
            byte[] expected = bad.get(i).payload();
            long read = (Long) r.get(4);
            assertTrue(read >= Math.min(expected.length, MAX_RECORD_BYTES) && read <= expected.length,
                    "record of " + read + " bytes");
            assertEquals(Math.min(read, MAX_DEAD_LETTER_BYTES), payload.length, "payload of " + payload.length + " bytes");
            assertArrayEquals(Arrays.copyOf(expected, payload.length), payload);
        }
    }

    // ------------------------------------------------------------------------------------------- file

    static Path writeFile(Path dir, List<byte[]> records) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] r : records) {
            out.writeBytes(r);
            out.write('\n');
        }
        Path file = dir.resolve("input.jsonl");
        Files.write(file, out.toByteArray());
        return file;
    }

    @Test
    void fileSkipDeliversEveryGoodRowAndDeadLettersEachBadLine(@TempDir Path dir) throws Exception {
        // over the limit and over the reader's 256 KB buffer
        List<Bad> bad = badRecords(400_000);
        List<Integer> badIndexes = new ArrayList<>();
        Path file = writeFile(dir, interleave(60, bad, badIndexes));
        String runId = UUID.randomUUID().toString();
        JobInstance job = start("poison_file_skip", script("'connector' = 'filesystem', 'path' = '" + file + "'",
                "skip", runId), dir.resolve("state"));
        assertTrue(job.awaitTermination(Duration.ofSeconds(60)), "a file job ends by itself");
        assertEquals(JobInstance.State.FINISHED, job.state(), String.valueOf(job.failure()));
        assertEquals(range(60), ids(runId + "-out"));
        assertDeadLetters(runId, bad, badIndexes.stream()
                .map(i -> "file " + file.toAbsolutePath() + ", line " + (i + 1)).collect(Collectors.toList()));
        assertEquals(bad.size(), job.status().tasks.stream().mapToLong(t -> t.skipped).sum());
    }

    @Test
    void fileFailStopsAtTheFirstBadLineAndARestartStopsThereAgain(@TempDir Path dir) throws Exception {
        List<Integer> badIndexes = new ArrayList<>();
        Path file = writeFile(dir, interleave(60, badRecords(400_000), badIndexes));
        String expected = "table src: cannot decode the record at file " + file.toAbsolutePath() + ", line "
                + (badIndexes.get(0) + 1) + ": field 'name': nested deeper than 1000 levels";
        for (int run = 0; run < 2; run++) {
            String runId = UUID.randomUUID().toString();
            JobInstance job = start("poison_file_fail", script("'connector' = 'filesystem', 'path' = '" + file + "'",
                    "fail", runId), dir.resolve("state"));
            assertTrue(job.awaitTermination(Duration.ofSeconds(60)), "the job ends");
            assertEquals(JobInstance.State.FAILED, job.state());
            String message = job.failure().getMessage();
            assertTrue(message.contains(expected), "run " + run + ": " + message);
            assertTrue(ids(runId + "-out").stream().allMatch(id -> id < badIndexes.get(0)), "nothing past the record");
            assertTrue(CollectSinkFactory.rows(runId + "-dead").isEmpty());
        }
    }

    // ------------------------------------------------------------------------------------------- RocketMQ

    static String send(List<byte[]> bodies) throws Exception {
        String topic = RocketMqTestSupport.createTopic("poison", 1);
        for (byte[] body : bodies) {
            RocketMqTestSupport.send(new Message(topic, body), 0);
        }
        return topic;
    }

    static String mqSource(String topic, String group) {
        return "'connector' = 'rocketmq', 'topic' = '" + topic + "', 'scan.group-id' = '" + group + "'";
    }

    static String position(String topic, int offset) {
        return "topic " + topic + ", queue 0 (broker " + RocketMqTestSupport.broker().brokerName() + "), offset "
                + offset;
    }

    @Test
    void rocketMqSkipDeliversEveryGoodRowAndDeadLettersEachBadMessage(@TempDir Path dir) throws Exception {
        List<Bad> bad = badRecords(150_000);
        List<Integer> badIndexes = new ArrayList<>();
        String topic = send(interleave(60, bad, badIndexes));
        String runId = UUID.randomUUID().toString();
        JobInstance job = start("poison_mq_skip", script(mqSource(topic, RocketMqTestSupport.unique("g")), "skip",
                runId), dir.resolve("state"));
        try {
            Await.until("every good row", Duration.ofSeconds(60), () -> ids(runId + "-out").size() >= 60
                    && CollectSinkFactory.rows(runId + "-dead").size() >= bad.size());
            assertEquals(JobInstance.State.RUNNING, job.state(), String.valueOf(job.failure()));
            assertEquals(range(60), ids(runId + "-out"));
            assertDeadLetters(runId, bad, badIndexes.stream().map(i -> position(topic, i))
                    .collect(Collectors.toList()));
        } finally {
            job.stop();
        }
    }

    @Test
    void rocketMqFailStopsAtTheFirstBadMessageAndARestartStopsThereAgain(@TempDir Path dir) throws Exception {
        List<Integer> badIndexes = new ArrayList<>();
        String topic = send(interleave(60, badRecords(150_000), badIndexes));
        String group = RocketMqTestSupport.unique("g");
        String expected = "table src: cannot decode the record at " + position(topic, badIndexes.get(0))
                + ": field 'name': nested deeper than 1000 levels";
        for (int run = 0; run < 2; run++) {
            String runId = UUID.randomUUID().toString();
            JobInstance job = start("poison_mq_fail", script(mqSource(topic, group), "fail", runId),
                    dir.resolve("state"));
            try {
                assertTrue(job.awaitTermination(Duration.ofSeconds(60)), "the job ends");
                assertEquals(JobInstance.State.FAILED, job.state());
                String message = job.failure().getMessage();
                assertTrue(message.contains(expected), "run " + run + ": " + message);
                assertTrue(ids(runId + "-out").stream().allMatch(id -> id < badIndexes.get(0)),
                        "nothing past the record");
            } finally {
                job.stop();
            }
        }
    }
}
