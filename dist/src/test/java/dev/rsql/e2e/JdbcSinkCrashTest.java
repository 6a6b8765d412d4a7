package dev.rsql.e2e;

import dev.rsql.broker.LocalRocketMq;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.MariaDbServer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A GROUP BY over a RocketMQ topic upserting into a real MariaDB table survives {@code kill -9} of its process: the
 * job runs in a child JVM, is killed while events are still arriving, and is started again on its state directory.
 * The rows written after the last checkpoint are written again after the restore, as upserts of the same values, so
 * the table ends exactly as the counts and sums of all events say. The job's log never shows the password.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class JdbcSinkCrashTest {

    static final int EVENTS = 30_000;
    static final int KEYS = 200;
    static final int QUEUES = 4;

    @TempDir
    Path dir;

    @Test
    void upsertTableIsExactAfterKillMinus9AndRestart() throws Exception {
        try (MariaDbServer db = MariaDbServer.start(dir.resolve("mariadb"));
             LocalRocketMq broker = LocalRocketMq.start(dir.resolve("broker"))) {
            run(db, broker);
        }
    }

    private void run(MariaDbServer db, LocalRocketMq broker) throws Exception {
        broker.createTopic("jdbc_in", QUEUES);
        db.execute("CREATE TABLE totals (k VARCHAR(20) PRIMARY KEY, n BIGINT, total BIGINT)");
        DefaultMQProducer producer = new DefaultMQProducer("jdbc_crash_producer");
        producer.setNamesrvAddr(broker.nameServerAddress());
        producer.setInstanceName("jdbc-crash-" + UUID.randomUUID());
        producer.start();
        Path script = dir.resolve("jdbc_totals.sql");
        Files.writeString(script, "CREATE TABLE ev (k VARCHAR, v BIGINT) WITH (type = 'rocketmq', topic = 'jdbc_in');\n"
                + "CREATE TABLE totals (k VARCHAR, n BIGINT, total BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (\n"
                + "  'connector' = 'jdbc', 'url' = '" + db.url() + "', 'table-name' = 'totals',\n"
                + "  'username' = '" + db.user() + "', 'password' = '" + db.password() + "',\n"
                + "  'sink.buffer-flush.max-rows' = '50');\n"
                + "INSERT INTO totals SELECT k, COUNT(*), SUM(v) FROM ev GROUP BY k;\n");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("rocketmq.namesrv", broker.nameServerAddress());
        settings.put("checkpoint.interval", "200ms");
        settings.put("worker.threads", "2");
        try (JobInstances job = new JobInstances(dir, dir.resolve("logs"), script, settings)) {
            try {
                List<MessageQueue> queues = producer.fetchPublishMessageQueues("jdbc_in").stream()
                        .sorted(Comparator.comparingInt(MessageQueue::getQueueId)).collect(Collectors.toList());
                Random r = new Random(12);
                Map<String, long[]> expected = new TreeMap<>();
                List<String> events = new ArrayList<>();
                for (int i = 0; i < EVENTS; i++) {
                    String k = "k" + r.nextInt(KEYS);
                    long v = r.nextInt(1000) - 300;
                    events.add("{\"k\":\"" + k + "\",\"v\":" + v + "}");
                    long[] acc = expected.computeIfAbsent(k, x -> new long[2]);
                    acc[0]++;
                    acc[1] += v;
                }
                produce(producer, queues, events, 0, EVENTS / 3);
                job.start("local");
                Path checkpoints = dir.resolve("state-local").resolve("jdbc_totals").resolve("checkpoints");
                Await.until("rows in MariaDB and a completed checkpoint", Duration.ofSeconds(60), () -> {
                    job.checkAlive();
                    return count(db) > 0 && hasCheckpoint(checkpoints);
                });
                // keep producing and kill the job in the middle of it: no final checkpoint, no last flush
                for (int from = EVENTS / 3; from < EVENTS; from += 500) {
                    produce(producer, queues, events, from, Math.min(EVENTS, from + 500));
                    if (from == EVENTS / 3 + 5_000) {
                        job.checkAlive();
                        job.kill("local");
                    }
                }
                assertFalse(job.isRunning("local"));
                job.start("local");
                List<String> want = expected.entrySet().stream()
                        .map(e -> e.getKey() + "|" + e.getValue()[0] + "|" + e.getValue()[1])
                        .collect(Collectors.toList());
                AtomicReference<List<String>> got = new AtomicReference<>();
                Await.until(() -> "the table of all " + EVENTS + " events; it has " + diff(want, got.get()),
                        Duration.ofSeconds(90), () -> {
                            job.checkAlive();
                            got.set(query(db));
                            return want.equals(got.get());
                        });
                assertEquals(1, job.loggedBy("restoring checkpoint").size(), "the restart restored a checkpoint");
                assertEquals(0, job.countLogLines(db.password()), "a log shows the password");
                job.stop("local", 60);
            } catch (Throwable t) {
                job.printLogs(60);
                throw t;
            }
        } finally {
            producer.shutdown();
        }
    }

    private static void produce(DefaultMQProducer producer, List<MessageQueue> queues, List<String> events, int from,
                                int to) throws Exception {
        List<List<Message>> batches = new ArrayList<>();
        for (int q = 0; q < queues.size(); q++) {
            batches.add(new ArrayList<>());
        }
        for (int i = from; i < to; i++) {
            batches.get(i % queues.size()).add(new Message("jdbc_in", events.get(i).getBytes(StandardCharsets.UTF_8)));
        }
        for (int q = 0; q < queues.size(); q++) {
            if (!batches.get(q).isEmpty()) {
                producer.send(batches.get(q), queues.get(q));
            }
        }
    }

    /** A completed checkpoint: its metadata is written last (a directory alone may be one under way). */
    private static boolean hasCheckpoint(Path checkpoints) {
        try (var files = Files.list(checkpoints)) {
            return files.anyMatch(d -> Files.isRegularFile(d.resolve("_metadata.json")));
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static long count(MariaDbServer db) {
        try {
            return Long.parseLong(db.query("SELECT COUNT(*) FROM totals").get(0));
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> query(MariaDbServer db) {
        try {
            return db.query("SELECT k, n, total FROM totals ORDER BY k");
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static String diff(List<String> want, List<String> got) {
        if (got == null) {
            return "nothing";
        }
        List<String> missing = new ArrayList<>(want);
        missing.removeAll(got);
        return got.size() + " rows, " + missing.size() + " differ from the expected, e.g. "
                + missing.subList(0, Math.min(3, missing.size()));
    }
}
