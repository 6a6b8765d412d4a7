package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.testing.Await;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * The job the distributed end-to-end tests run, with its input and what its output must be: keyed events from an
 * 8-queue topic counted twice, per key and 2-second tumbling window into one topic, and per key without a window
 * (an upsert per event, the table has a primary key) into another. Both counts follow a shuffle, so their RocketMQ
 * sinks are exactly-once: every window must be emitted exactly once with its exact count, and every key's running
 * count must go through exactly 1..n, each value once, whichever instances counted and however often they died.
 *
 * <p>Events: event i goes to a queue and has a key, both drawn from the seed, and the time {@code BASE + i * STEP}
 * minus a jitter below the watermark delay: a queue's times rise except for the jitter, so no event is ever late,
 * whichever queue the watermark waits for. After the events, one sentinel per queue an hour later closes every
 * window (its own window never closes; its key's running count is checked like any other: 1..queues).
 */
final class KeyedCountJob implements AutoCloseable {

    static final int QUEUES = 8;
    static final long WINDOW_MS = 2_000;
    static final long WATERMARK_DELAY_MS = 500;
    static final int JITTER_MS = 400;
    static final long BASE_TS = 1_700_000_000_000L;
    static final String SENTINEL = "sentinel";
    static final String TX_PROPERTY = "rsql_txn";
    private static final int SEND_BATCH = 256;
    private static final DateTimeFormatter SQL_TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);

    record Event(String key, int queue, long ts) {
        String json() {
            return "{\"k\":\"" + key + "\",\"ts\":" + ts + "}";
        }

        String window() {
            return key + "@" + SQL_TIMESTAMP.format(Instant.ofEpochMilli(ts - Math.floorMod(ts, WINDOW_MS)));
        }
    }

    /**
     * One row read from a sink topic: its value, the transaction that wrote it, where it is stored, when its half
     * message was sent (born) and when the committed copy was stored.
     */
    record Emission(long count, String transaction, int queue, long offset, long bornMillis, long storedMillis) {
        private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS")
                .withZone(ZoneId.systemDefault());

        @Override
        public String toString() {
            return count + " (tx " + transaction + ", q" + queue + "@" + offset + ", sent "
                    + TIME.format(Instant.ofEpochMilli(bornMillis)) + ", stored "
                    + TIME.format(Instant.ofEpochMilli(storedMillis)) + ")";
        }
    }

    final String input;
    final String windowsTopic;
    final String totalsTopic;
    final Path script;
    final List<Event> events;
    final Map<String, Long> expectedWindows = new TreeMap<>();
    final Map<String, Long> expectedTotals = new TreeMap<>();
    /** Every row read, in the order read: windows by "key@start", totals by key. */
    final Map<String, List<Emission>> windows = new TreeMap<>();
    final Map<String, List<Emission>> totals = new TreeMap<>();
    private final TestBroker broker;
    private final DefaultMQProducer producer;
    private final List<MessageQueue> inputQueues;
    private DefaultLitePullConsumer windowReader;
    private DefaultLitePullConsumer totalReader;
    private long totalRows;
    private int produced;

    /**
     * Creates the topics (fresh names) and the script {@code <dir>/<jobName>.sql}, and draws the events.
     *
     * @param stepMs event time between consecutive events (over all queues)
     */
    KeyedCountJob(TestBroker broker, Path dir, String jobName, long seed, int eventCount, int keys, long stepMs)
            throws Exception {
        this(broker, dir, jobName, seed, eventCount, keys, stepMs, "");
    }

    /** As above; {@code sinkOptions} (e.g. {@code , `sink.retry-timeout` = '10s'}) go into both sinks' WITH. */
    KeyedCountJob(TestBroker broker, Path dir, String jobName, long seed, int eventCount, int keys, long stepMs,
                  String sinkOptions) throws Exception {
        this.broker = broker;
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        this.input = jobName + "_in_" + suffix;
        this.windowsTopic = jobName + "_windows_" + suffix;
        this.totalsTopic = jobName + "_totals_" + suffix;
        broker.createTopic(input, QUEUES);
        broker.createTopic(windowsTopic, 4);
        broker.createTopic(totalsTopic, 4);
        this.script = dir.resolve(jobName + ".sql");
        Files.createDirectories(dir);
        Files.writeString(script, "CREATE TABLE ev (k VARCHAR, ts TIMESTAMP(3), WATERMARK FOR ts AS withOffset(ts, "
                + WATERMARK_DELAY_MS + "))\n"
                + " WITH (type = 'rocketmq', topic = '" + input + "');\n"
                + "CREATE TABLE window_counts (k VARCHAR, ws TIMESTAMP(3), c BIGINT)\n"
                + " WITH (type = 'rocketmq', topic = '" + windowsTopic + "', keyColumns = 'k'" + sinkOptions + ");\n"
                + "CREATE TABLE totals (k VARCHAR, c BIGINT, PRIMARY KEY (k) NOT ENFORCED)\n"
                + " WITH (type = 'rocketmq', topic = '" + totalsTopic + "', keyColumns = 'k'" + sinkOptions + ");\n"
                + "INSERT INTO window_counts SELECT k, window_start, COUNT(*)\n"
                + " FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '" + WINDOW_MS / 1000 + "' SECOND))\n"
                + " GROUP BY k, window_start, window_end;\n"
                + "INSERT INTO totals SELECT k, COUNT(*) FROM ev GROUP BY k;\n");
        this.events = events(seed, eventCount, keys, stepMs);
        for (Event e : events) {
            expectedWindows.merge(e.window(), 1L, Long::sum);
            expectedTotals.merge(e.key(), 1L, Long::sum);
        }
        expectedTotals.put(SENTINEL, (long) QUEUES);
        producer = new DefaultMQProducer("rsql_e2e_producer_" + suffix);
        producer.setNamesrvAddr(broker.nameServerAddress());
        producer.setInstanceName("rsql-e2e-producer-" + suffix);
        producer.start();
        inputQueues = producer.fetchPublishMessageQueues(input).stream()
                .sorted(Comparator.comparingInt(MessageQueue::getQueueId)).collect(Collectors.toList());
        if (inputQueues.size() != QUEUES) {
            throw new IllegalStateException("topic " + input + " has " + inputQueues.size() + " queues");
        }
    }

    static List<Event> events(long seed, int count, int keys, long stepMs) {
        Random random = new Random(seed);
        List<Event> events = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            events.add(new Event("k" + random.nextInt(keys), random.nextInt(QUEUES),
                    BASE_TS + i * stepMs - random.nextInt(JITTER_MS)));
        }
        return events;
    }

    String jobName() {
        String file = script.getFileName().toString();
        return file.substring(0, file.length() - 4);
    }

    int produced() {
        return produced;
    }

    /** Sends the next {@code n} events (or what is left), each to its queue, in order. */
    void produceNext(int n) throws Exception {
        int to = Math.min(events.size(), produced + n);
        List<List<Message>> byQueue = new ArrayList<>();
        for (int q = 0; q < QUEUES; q++) {
            byQueue.add(new ArrayList<>());
        }
        for (int i = produced; i < to; i++) {
            Event e = events.get(i);
            byQueue.get(e.queue()).add(new Message(input, e.json().getBytes(StandardCharsets.UTF_8)));
        }
        for (int q = 0; q < QUEUES; q++) {
            List<Message> batch = byQueue.get(q);
            for (int i = 0; i < batch.size(); i += SEND_BATCH) {
                send(batch.subList(i, Math.min(batch.size(), i + SEND_BATCH)), inputQueues.get(q));
            }
        }
        produced = to;
    }

    /** One event an hour after the last into every queue: every queue's watermark passes every window above. */
    void produceSentinels() throws Exception {
        long ts = BASE_TS + (long) events.size() * 1_000 + 3_600_000L;
        for (MessageQueue q : inputQueues) {
            send(List.of(new Message(input, new Event(SENTINEL, q.getQueueId(), ts).json()
                    .getBytes(StandardCharsets.UTF_8))), q);
        }
    }

    private void send(List<Message> batch, MessageQueue queue) throws Exception {
        SendResult r = producer.send(batch, queue);
        if (r.getSendStatus() != SendStatus.SEND_OK) {
            throw new IllegalStateException("sending " + batch.size() + " events to " + queue + ": "
                    + r.getSendStatus());
        }
    }

    /** Starts reading both sink topics from their beginning. */
    void startReaders() throws Exception {
        windowReader = TopicReaders.fromStart(broker.nameServerAddress(), windowsTopic);
        totalReader = TopicReaders.fromStart(broker.nameServerAddress(), totalsTopic);
    }

    /**
     * Forgets what was read and reads both sink topics again from their beginning, with new readers: what the topics
     * hold, whatever the old readers went through (a reader polling through a broker outage may skip rows).
     */
    void rereadFromStart() throws Exception {
        windowReader.shutdown();
        totalReader.shutdown();
        windows.clear();
        totals.clear();
        totalRows = 0;
        startReaders();
    }

    /** Reads everything the sink topics have now (each poll returns at most a batch: poll until nothing comes). */
    void drain() {
        drain(windowReader, windows, true);
        totalRows += drain(totalReader, totals, false);
    }

    private static long drain(DefaultLitePullConsumer reader, Map<String, List<Emission>> into, boolean window) {
        long n = 0;
        for (List<MessageExt> batch = reader.poll(20); !batch.isEmpty(); batch = reader.poll(20)) {
            for (MessageExt m : batch) {
                JSONObject row = JSON.parseObject(new String(m.getBody(), StandardCharsets.UTF_8));
                String k = row.getString("k");
                if (window && SENTINEL.equals(k)) {
                    continue;
                }
                into.computeIfAbsent(window ? k + "@" + row.getString("ws") : k, x -> new ArrayList<>())
                        .add(new Emission(row.getLongValue("c"), m.getUserProperty(TX_PROPERTY), m.getQueueId(),
                                m.getQueueOffset(), m.getBornTimestamp(), m.getStoreTimestamp()));
            }
            n += batch.size();
        }
        return n;
    }

    /** Rows read from the totals topic so far: one per event counted (and committed). */
    long totalRows() {
        return totalRows;
    }

    /** Every expected window has been emitted and every key's count has reached its total. */
    boolean complete() {
        return windows.keySet().containsAll(expectedWindows.keySet())
                && expectedTotals.entrySet().stream().allMatch(e -> totals.getOrDefault(e.getKey(), List.of())
                .stream().anyMatch(x -> x.count() == e.getValue()));
    }

    /** What is still missing, briefly, for a timeout message. */
    String progress() {
        long missingWindows = expectedWindows.keySet().stream().filter(w -> !windows.containsKey(w)).count();
        List<String> behind = expectedTotals.entrySet().stream()
                .filter(e -> totals.getOrDefault(e.getKey(), List.of()).stream()
                        .noneMatch(x -> x.count() == e.getValue()))
                .limit(6)
                .map(e -> e.getKey() + " at " + totals.getOrDefault(e.getKey(), List.of()).stream()
                        .mapToLong(Emission::count).max().orElse(0) + " of " + e.getValue())
                .collect(Collectors.toList());
        return produced + " of " + events.size() + " events produced, " + totalRows + " total rows read; "
                + missingWindows + " of " + expectedWindows.size() + " windows missing (e.g. "
                + expectedWindows.keySet().stream().filter(w -> !windows.containsKey(w)).limit(4)
                .collect(Collectors.toList()) + "); totals behind: " + behind;
    }

    /**
     * Everything that is not exactly as expected: windows missing, emitted more than once or with a wrong count;
     * per key, running counts missing, emitted more than once or unexpected. Empty when the output is exact. With
     * {@code repeatsAllowed} (an at-least-once sink) a window or running count emitted again with the same value is
     * no problem.
     */
    List<String> problems(boolean repeatsAllowed) {
        List<String> problems = new ArrayList<>();
        expectedWindows.forEach((w, c) -> {
            List<Emission> got = windows.getOrDefault(w, List.of());
            if (got.isEmpty() || (!repeatsAllowed && got.size() != 1) || got.stream().anyMatch(e -> e.count() != c)) {
                problems.add("window " + w + ": expected [" + c + "], emitted " + got);
            }
        });
        windows.keySet().stream().filter(w -> !expectedWindows.containsKey(w))
                .forEach(w -> problems.add("window " + w + ": not expected, emitted " + windows.get(w)));
        expectedTotals.forEach((k, n) -> {
            Map<Long, List<Emission>> byCount = new TreeMap<>();
            for (Emission e : totals.getOrDefault(k, List.of())) {
                byCount.computeIfAbsent(e.count(), x -> new ArrayList<>()).add(e);
            }
            List<Long> missing = new ArrayList<>();
            for (long c = 1; c <= n; c++) {
                if (!byCount.containsKey(c)) {
                    missing.add(c);
                }
            }
            List<List<Emission>> doubled = byCount.values().stream().filter(l -> !repeatsAllowed && l.size() > 1)
                    .collect(Collectors.toList());
            List<Long> unexpected = byCount.keySet().stream().filter(c -> c < 1 || c > n)
                    .collect(Collectors.toList());
            if (!missing.isEmpty() || !doubled.isEmpty() || !unexpected.isEmpty()) {
                problems.add("count of " + k + " (n=" + n + "): " + ranges(missing) + " missing, "
                        + doubled.size() + " emitted more than once"
                        + (doubled.isEmpty() ? "" : " (e.g. " + doubled.subList(0, Math.min(3, doubled.size()))
                        + ")") + (unexpected.isEmpty() ? "" : ", unexpected " + unexpected));
            }
        });
        totals.keySet().stream().filter(k -> !expectedTotals.containsKey(k))
                .forEach(k -> problems.add("count of " + k + ": not expected, emitted " + totals.get(k).size()
                        + " times"));
        return problems;
    }

    /** The transactions (task/incarnation/checkpoint) that wrote rows which are wrong, with how many each. */
    Map<String, Long> transactionsOfDuplicates() {
        Map<String, Long> txs = new TreeMap<>();
        for (List<Emission> l : windows.values()) {
            if (l.size() > 1) {
                l.forEach(e -> txs.merge("windows " + e.transaction(), 1L, Long::sum));
            }
        }
        for (List<Emission> l : totals.values()) {
            Map<Long, List<Emission>> byCount = l.stream().collect(Collectors.groupingBy(Emission::count));
            byCount.values().stream().filter(x -> x.size() > 1).flatMap(List::stream)
                    .forEach(e -> txs.merge("totals " + e.transaction(), 1L, Long::sum));
        }
        return txs;
    }

    /**
     * Fails unless the output is exact ({@link #problems} is empty). On failure every problem and which
     * transactions (and instance starts) wrote the doubled rows go to {@code problems.txt} in the instances' log
     * directory; the assertion message has the first of them.
     */
    void assertExactlyOnce(JobInstances instances, String when) {
        assertExact(instances, when, false);
    }

    /** As {@link #assertExactlyOnce}; with {@code repeatsAllowed}, results emitted again with the same value pass. */
    void assertExact(JobInstances instances, String when, boolean repeatsAllowed) {
        List<String> problems = problems(repeatsAllowed);
        if (problems.isEmpty()) {
            return;
        }
        long windowsMissing = problems.stream().filter(p -> p.startsWith("window") && p.contains("emitted []"))
                .count();
        long windowsWrong = problems.stream().filter(p -> p.startsWith("window")).count() - windowsMissing;
        long keysWrong = problems.stream().filter(p -> p.startsWith("count of")).count();
        String summary = when + ": " + problems.size() + " windows/keys not exactly once (" + windowsMissing
                + " windows missing, " + windowsWrong + " windows emitted twice or with a wrong count, " + keysWrong
                + " keys whose running counts are not exactly 1..n)";
        Path file = instances.logDir().resolve("problems.txt");
        writeSummary(file, summary + "\n" + String.join("\n", problems) + "\n\n" + duplicatesReport(instances)
                + "\n");
        throw new AssertionError(summary + "; all in " + file + "; the first: "
                + problems.subList(0, Math.min(12, problems.size())));
    }

    /** Which transactions wrote the doubled rows, and which instance (start) ran each incarnation. */
    String duplicatesReport(JobInstances instances) {
        Map<String, Long> txs = transactionsOfDuplicates();
        if (txs.isEmpty()) {
            return "no rows doubled";
        }
        List<String> lines = new ArrayList<>();
        txs.forEach((tx, n) -> {
            String id = tx.substring(tx.indexOf(' ') + 1);
            String[] parts = id.split("/");
            String who = parts.length == 3 ? String.valueOf(instances.loggedBy("incarnation " + parts[1]
                    + " claimed")) : "?";
            lines.add(tx + ": " + n + " rows in doubled groups; incarnation claimed by " + who
                    + "; mentioned in the logs of " + instances.loggedBy(id));
        });
        return "rows doubled, by the transaction that wrote them:\n  " + String.join("\n  ", lines);
    }

    /** "1..5, 9, 12..14" */
    static String ranges(List<Long> values) {
        if (values.isEmpty()) {
            return "none";
        }
        StringBuilder b = new StringBuilder();
        int parts = 0;
        for (int i = 0; i < values.size() && parts < 12; parts++) {
            int j = i;
            while (j + 1 < values.size() && values.get(j + 1) == values.get(j) + 1) {
                j++;
            }
            b.append(b.length() == 0 ? "" : ", ").append(values.get(i))
                    .append(j > i ? ".." + values.get(j) : "");
            i = j + 1;
        }
        return values.size() + " (" + b + (parts == 12 ? ", ..." : "") + ")";
    }

    /**
     * Waits for {@code condition}, reading the sink topics in every round; fails at once if an instance exited on
     * its own, and on timeout says what is missing and which shuffle queues no running instance reads.
     */
    void await(JobInstances instances, int shuffleQueues, String what, Duration timeout, BooleanSupplier condition) {
        Await.until(() -> what + ": " + progress() + "; running " + instances.runningIds()
                + ", shuffle tasks no running instance runs: " + instances.unownedShuffleTasks(shuffleQueues),
                timeout, () -> {
                    instances.checkAlive();
                    drain();
                    return condition.getAsBoolean();
                });
    }

    /**
     * Waits until the broker holds no open half message of the sink topics: the halves a killed or revoked task left
     * are rolled back or committed by the broker's check (answered by the job) within seconds, and a row committed
     * twice would only show then. Reads the topics meanwhile.
     */
    void settle(JobInstances instances) {
        long[] open = {Long.MIN_VALUE};
        Await.until(() -> "no open transactions on the sink topics; still open: " + open[0], Duration.ofSeconds(60),
                () -> {
                    instances.checkAlive();
                    drain();
                    open[0] = openTransactions();
                    return open[0] <= 0;
                });
        // The broker's count of open transactions also drops for a copy of a half that the job rolls back because its
        // message is stored already, so it can reach 0 while halves still wait for their check: wait (bounded) for
        // every result to be there at least once; the caller's check then finds what is missing or doubled.
        try {
            Await.until(() -> "every result at least once", Duration.ofSeconds(120), () -> {
                instances.checkAlive();
                drain();
                return problems(true).isEmpty();
            });
        } catch (AssertionError e) {
            // reported by the caller's exactness check, with every problem listed
        }
        drain();
    }

    /** Half messages of the sink topics the broker holds open (neither committed nor rolled back yet). */
    long openTransactions() {
        return broker.openTransactions(windowsTopic, totalsTopic);
    }

    @Override
    public void close() {
        for (AutoCloseable c : new AutoCloseable[]{windowReader == null ? null : windowReader::shutdown,
                totalReader == null ? null : totalReader::shutdown, producer::shutdown}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    // closing is best effort
                }
            }
        }
    }

    static void writeSummary(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            System.out.println("cannot write " + file + ": " + e);
        }
    }
}
