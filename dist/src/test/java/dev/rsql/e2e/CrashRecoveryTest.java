package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.broker.LocalRocketMq;
import dev.rsql.runtime.testing.Await;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A keyed tumbling count over a real RocketMQ topic survives {@code kill -9} of its process: the job runs in a child
 * JVM ({@code rsql run}), is killed while events are still being produced, and is started again on the same state
 * directory. Every window's count must then be exact — no event lost, none counted twice — wherever the kill landed
 * (in a checkpoint, in a sink flush, after windows fired that the last checkpoint does not know of). Results emitted
 * again after the restore are allowed (the sink is at-least-once) but must carry the same count.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CrashRecoveryTest {

    static final String JOB = "crash_count";
    static final int EVENTS = 20_000;
    /** Produced before the first process starts; the rest is produced while it runs and is killed. */
    static final int FIRST_PART = 8_000;
    /** The first process is killed once this many events are produced, i.e. while it is still reading. */
    static final int KILL_AFTER = 14_000;
    static final int KEYS = 5;
    static final int QUEUES = 4;
    static final long WINDOW_MS = 5_000;
    static final long WATERMARK_DELAY_MS = 2_000;
    /** Events are STEP_MS apart in event time, minus up to JITTER_MS: out of order, but never late. */
    static final long STEP_MS = 10;
    static final int JITTER_MS = 1_000;
    static final long BASE_TS = 1_700_000_000_000L;
    static final DateTimeFormatter SQL_TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);

    @TempDir
    Path dir;

    LocalRocketMq broker;
    DefaultMQProducer producer;
    List<MessageQueue> inputQueues;
    DefaultLitePullConsumer reader;
    final List<Process> children = new ArrayList<>();
    final List<Path> childLogs = new ArrayList<>();

    /** Event i: key i mod KEYS, queue i mod QUEUES; within a queue times rise by 40 ms minus the jitter. */
    record Event(String key, long ts) {
        String json() {
            return "{\"k\":\"" + key + "\",\"v\":1,\"ts\":" + ts + "}";
        }

        String window() {
            long start = ts - Math.floorMod(ts, WINDOW_MS);
            return key + " @ " + SQL_TIMESTAMP.format(Instant.ofEpochMilli(start));
        }
    }

    static List<Event> events() {
        Random random = new Random(42);
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            events.add(new Event("k" + (i % KEYS), BASE_TS + i * STEP_MS - random.nextInt(JITTER_MS)));
        }
        return events;
    }

    @Test
    void tumblingCountIsExactAfterKillMinus9AndRestart() throws Exception {
        try {
            run();
        } catch (Throwable t) {
            printChildLogs();
            throw t;
        } finally {
            children.forEach(Process::destroyForcibly);
            if (reader != null) {
                reader.shutdown();
            }
            if (producer != null) {
                producer.shutdown();
            }
            if (broker != null) {
                broker.close();
            }
        }
    }

    private void run() throws Exception {
        broker = LocalRocketMq.start(dir.resolve("broker"));
        String in = "crash_in";
        String out = "crash_out";
        broker.createTopic(in, QUEUES);
        broker.createTopic(out, QUEUES);
        producer = new DefaultMQProducer("crash_test_producer");
        producer.setNamesrvAddr(broker.nameServerAddress());
        producer.setInstanceName("crash-test-" + UUID.randomUUID());
        producer.start();
        inputQueues = producer.fetchPublishMessageQueues(in).stream()
                .sorted(Comparator.comparingInt(MessageQueue::getQueueId)).collect(Collectors.toList());
        assertEquals(QUEUES, inputQueues.size());
        reader = TopicReaders.fromStart(broker.nameServerAddress(), out);

        List<Event> events = events();
        Map<String, Long> expected = new TreeMap<>();
        events.forEach(e -> expected.merge(e.window(), 1L, Long::sum));
        Map<String, List<Long>> emitted = new TreeMap<>();

        Path script = dir.resolve(JOB + ".sql");
        Files.writeString(script, "CREATE TABLE ev (k VARCHAR, v BIGINT, ts TIMESTAMP(3),\n"
                + "  WATERMARK FOR ts AS withOffset(ts, " + WATERMARK_DELAY_MS + ")\n"
                + ") WITH (type = 'rocketmq', topic = '" + in + "');\n"
                + "CREATE TABLE counts (k VARCHAR, ws TIMESTAMP(3), c BIGINT)\n"
                + "  WITH (type = 'rocketmq', topic = '" + out + "', keyColumns = 'k');\n"
                + "INSERT INTO counts SELECT k, window_start, COUNT(*)\n"
                + "  FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '" + WINDOW_MS / 1000 + "' SECOND))\n"
                + "  GROUP BY k, window_start, window_end;\n");
        Path checkpoints = dir.resolve("state").resolve(JOB).resolve("checkpoints");

        produce(events, 0, FIRST_PART);
        Process first = startJob(script);
        Await.until("windows in the output and a completed checkpoint", Duration.ofSeconds(60), () -> {
            checkAlive(first);
            readInto(emitted);
            return !emitted.isEmpty() && latestCheckpoint(checkpoints) != null;
        });

        // Go on producing while the job reads, and kill it in the middle of that: SIGKILL, so no shutdown hook, no
        // final checkpoint, no flush.
        String killedAt = null;
        for (int from = FIRST_PART; from < EVENTS; from += 100) {
            produce(events, from, from + 100);
            if (from + 100 == KILL_AFTER) {
                checkAlive(first);
                first.destroyForcibly();
                killedAt = describe(checkpoints);
            }
        }
        produceSentinels();
        assertTrue(first.waitFor(30, TimeUnit.SECONDS), "the killed process did not go away");
        assertEquals(128 + 9, first.exitValue(), "killed by SIGKILL");
        System.out.println("killed with " + KILL_AFTER + " events produced; " + killedAt);

        Process second = startJob(script);
        Await.until("every window of the " + EVENTS + " events in the output", Duration.ofSeconds(60), () -> {
            checkAlive(second);
            readInto(emitted);
            return emitted.keySet().containsAll(expected.keySet());
        });
        assertTrue(Files.readString(childLogs.get(1)).contains("restoring checkpoint"),
                "the restarted job did not restore a checkpoint");
        // The sink keys messages by k, so each key's results are in one queue, in the order they were written: once
        // a key's last window is read, every earlier (re-)emission of that key has been read too.
        List<String> wrong = new ArrayList<>();
        emitted.forEach((window, counts) -> {
            Long want = expected.get(window);
            if (counts.stream().anyMatch(c -> !c.equals(want))) {
                wrong.add(window + ": emitted " + counts + ", expected " + want);
            }
        });
        assertTrue(wrong.isEmpty(), wrong.size() + " of " + expected.size() + " windows have a wrong count, e.g. "
                + wrong.subList(0, Math.min(10, wrong.size())));
        assertEquals(expected.keySet(), emitted.keySet());
        System.out.println(expected.size() + " windows exact; " + emitted.values().stream().filter(c -> c.size() > 1)
                .count() + " of them emitted again after the restart");
        second.destroy();
        assertTrue(second.waitFor(60, TimeUnit.SECONDS), "the job did not stop on SIGTERM");
    }

    private Process startJob(Path script) throws IOException {
        int n = children.size() + 1;
        Path log = dir.resolve("run-" + n + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m",
                "-Drmq.logback.configurationFile=rmq.logback.xml",
                "-Drsql.rocketmq.log.dir=" + dir.resolve("rocketmq-logs-" + n),
                // RocksJava copies its 15 MB library into the temporary directory; a killed job leaves the copy
                "-Djava.io.tmpdir=" + dir,
                "-cp", System.getProperty("java.class.path"),
                "dev.rsql.cli.RsqlCli", "--home", dir.resolve("home").toString(),
                "run", script.toString(),
                "-D", "rocketmq.namesrv=" + broker.nameServerAddress(),
                "-D", "state.dir=" + dir.resolve("state"),
                "-D", "checkpoint.interval=200ms",
                "-D", "worker.threads=2")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Process p = pb.start();
        children.add(p);
        childLogs.add(log);
        return p;
    }

    private static void checkAlive(Process p) {
        assertTrue(p.isAlive(), "the job process exited with " + (p.isAlive() ? "" : p.exitValue()));
    }

    /** Sends events [from, to) each to its queue, in batches. */
    private void produce(List<Event> events, int from, int to) throws Exception {
        List<List<Message>> batches = new ArrayList<>();
        for (int q = 0; q < QUEUES; q++) {
            batches.add(new ArrayList<>());
        }
        for (int i = from; i < to; i++) {
            batches.get(i % QUEUES).add(new Message(inputQueues.get(0).getTopic(),
                    events.get(i).json().getBytes(StandardCharsets.UTF_8)));
        }
        for (int q = 0; q < QUEUES; q++) {
            if (!batches.get(q).isEmpty()) {
                producer.send(batches.get(q), inputQueues.get(q));
            }
        }
    }

    /**
     * One event an hour after the others into every queue: it moves every queue's watermark past the last window, so
     * the last windows close. Its own window never closes, and its key is not among the expected ones.
     */
    private void produceSentinels() throws Exception {
        long ts = BASE_TS + EVENTS * STEP_MS + 3_600_000L;
        for (MessageQueue q : inputQueues) {
            producer.send(new Message(q.getTopic(), new Event("sentinel", ts).json().getBytes(StandardCharsets.UTF_8)),
                    q);
        }
    }

    /** Adds what the output topic has now: every count emitted per window ("key @ window start"). */
    private void readInto(Map<String, List<Long>> emitted) {
        for (MessageExt m : reader.poll(200)) {
            JSONObject row = JSON.parseObject(new String(m.getBody(), StandardCharsets.UTF_8));
            emitted.computeIfAbsent(row.getString("k") + " @ " + row.getString("ws"), w -> new ArrayList<>())
                    .add(row.getLong("c"));
        }
    }

    /** The name of the newest completed checkpoint (its metadata is written last), or null. */
    private static String latestCheckpoint(Path checkpoints) {
        if (!Files.isDirectory(checkpoints)) {
            return null;
        }
        try (Stream<Path> dirs = Files.list(checkpoints)) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("_metadata.json")))
                    .map(d -> d.getFileName().toString())
                    .max(Comparator.comparingLong(name -> Long.parseLong(name.substring("chk-".length()))))
                    .orElse(null);
        } catch (IOException | RuntimeException e) {
            return null; // a checkpoint was deleted while listing: ask again
        }
    }

    /** The newest completed checkpoint and how many events its source positions cover, for the test's output. */
    private static String describe(Path checkpoints) {
        String name = latestCheckpoint(checkpoints);
        if (name == null) {
            return "no checkpoint";
        }
        try {
            JSONObject meta = JSON.parseObject(Files.readString(checkpoints.resolve(name).resolve("_metadata.json")));
            long covered = meta.getJSONArray("tasks").stream().mapToLong(t -> Math.max(0,
                    ((JSONObject) t).getLongValue("position"))).sum();
            return "latest checkpoint " + name + " covers " + covered + " events";
        } catch (IOException | RuntimeException e) {
            return "latest checkpoint " + name + " (deleted meanwhile)";
        }
    }

    private void printChildLogs() {
        for (Path log : childLogs) {
            try {
                System.out.println("==== " + log.getFileName() + " ====\n" + Files.readString(log));
            } catch (IOException e) {
                System.out.println("==== " + log.getFileName() + ": " + e);
            }
        }
    }
}

