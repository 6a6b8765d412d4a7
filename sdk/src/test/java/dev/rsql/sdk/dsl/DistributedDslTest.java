package dev.rsql.sdk.dsl;

import dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport;
import dev.rsql.runtime.testing.Await;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A DSL job run distributed by two engines in two JVMs ({@link DistributedCountJob}) against the in-process RocketMQ:
 * both take part (each runs tasks), and the windowed counts they write together are exact, every window once.
 */
@ExtendWith(RocketMqTestSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DistributedDslTest {

    private static final int QUEUES = 4;
    private static final int EVENTS = 3_000;
    private static final int KEYS = 10;
    private static final long BASE = 1_700_000_000_000L;
    private static final Pattern ROW = Pattern.compile(
            "\"k\":\"([^\"]+)\",\"count\":(\\d+),\"windowStart\":(\\d+)");

    @TempDir
    Path dir;

    @Test
    void twoEnginesCountEveryWindowExactlyOnce() throws Exception {
        String input = RocketMqTestSupport.createTopic("dsl_events", QUEUES);
        String output = RocketMqTestSupport.createTopic("dsl_counts", QUEUES);
        List<Process> instances = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        try {
            for (String id : List.of("a", "b")) {
                Path log = dir.resolve(id + ".log");
                logs.add(log);
                instances.add(start(id, input, output, log));
            }
            Await.until(() -> "both instances running tasks: " + tails(logs), Duration.ofSeconds(90),
                    () -> logs.stream().allMatch(DistributedDslTest::runsTasks));

            // events in every queue, out of order within the watermark delay; then one late sentinel per queue
            Random random = new Random(31);
            Map<String, Long> expected = new TreeMap<>();
            for (int i = 0; i < EVENTS; i++) {
                long ts = BASE + i * 5L - random.nextInt((int) DistributedCountJob.WATERMARK_DELAY_MS);
                String k = "k" + random.nextInt(KEYS);
                expected.merge(k + "@" + (ts - Math.floorMod(ts, DistributedCountJob.WINDOW_MS)), 1L, Long::sum);
                send(input, random.nextInt(QUEUES), k, ts);
            }
            for (int q = 0; q < QUEUES; q++) {
                send(input, q, "sentinel", BASE + EVENTS * 5L + 3_600_000L);
            }

            Map<String, List<Long>> written = new TreeMap<>();
            Await.until(() -> "all " + expected.size() + " windows, got " + written.size() + "; " + tails(logs),
                    Duration.ofSeconds(90), () -> {
                        for (Process p : instances) {
                            assertTrue(p.isAlive(), () -> "an instance ended: " + tails(logs));
                        }
                        written.clear();
                        for (MessageExt m : readAllUnchecked(output)) {
                            Matcher row = ROW.matcher(new String(m.getBody(), StandardCharsets.UTF_8));
                            assertTrue(row.find(), () -> "unexpected row " + new String(m.getBody()));
                            written.computeIfAbsent(row.group(1) + "@" + row.group(3), w -> new ArrayList<>())
                                    .add(Long.parseLong(row.group(2)));
                        }
                        return written.size() >= expected.size();
                    });
            Map<String, List<Long>> want = new TreeMap<>();
            expected.forEach((w, n) -> want.put(w, List.of(n)));
            assertEquals(want, written);
        } finally {
            for (Process p : instances) {
                p.getOutputStream().close();   // a graceful stop
            }
            for (Process p : instances) {
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }

    private Process start(String id, String input, String output, Path log) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Drmq.logback.configurationFile=rmq.logback.xml",
                "-Drsql.rocketmq.log.dir=" + dir.resolve("rocketmq-" + id),
                "-cp", System.getProperty("java.class.path"), DistributedCountJob.class.getName(),
                RocketMqTestSupport.namesrv(), input, output, id, dir.resolve("state-" + id).toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static boolean runsTasks(Path log) {
        try {
            return Files.exists(log) && Files.readAllLines(log).stream()
                    .anyMatch(l -> l.startsWith("RUNNING TASKS ") && !l.equals("RUNNING TASKS 0"));
        } catch (IOException e) {
            return false;
        }
    }

    private static String tails(List<Path> logs) {
        StringBuilder sb = new StringBuilder();
        for (Path log : logs) {
            try {
                List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
                sb.append("\n--- ").append(log.getFileName()).append('\n')
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())));
            } catch (IOException e) {
                sb.append(e);
            }
        }
        return sb.toString();
    }

    private static void send(String topic, int queue, String key, long ts) throws Exception {
        RocketMqTestSupport.send(new Message(topic, ("{\"k\":\"" + key + "\",\"ts\":" + ts + "}")
                .getBytes(StandardCharsets.UTF_8)), queue);
    }

    private static List<MessageExt> readAllUnchecked(String topic) {
        try {
            return readAll(topic);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + topic, e);
        }
    }

    /** Every message of the topic stored so far (the committed rows of the transactional sink). */
    private static List<MessageExt> readAll(String topic) throws Exception {
        long stored = RocketMqTestSupport.storedCount(topic);
        List<MessageExt> out = new ArrayList<>();
        if (stored == 0) {
            return out;
        }
        DefaultLitePullConsumer c = new DefaultLitePullConsumer(RocketMqTestSupport.unique("dsl_test_reader"));
        c.setNamesrvAddr(RocketMqTestSupport.namesrv());
        c.setInstanceName(RocketMqTestSupport.unique("reader"));
        c.setAutoCommit(false);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.start();
        try {
            c.assign(new ArrayList<>(c.fetchMessageQueues(topic)));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (out.size() < stored && System.nanoTime() < deadline) {
                out.addAll(c.poll(200));
            }
        } finally {
            c.shutdown();
        }
        return out;
    }
}
