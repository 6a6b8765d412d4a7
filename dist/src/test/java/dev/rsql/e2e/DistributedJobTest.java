package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.testing.Await;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job with {@code execution.mode = distributed} run as two instances in this JVM (each with its own RocketMQ
 * clients, as two processes would have): the queues of an 8-queue source and of the shuffle topics are shared between
 * them, and when one stops, the other takes its queues over with their state.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DistributedJobTest extends DistributedJobFixture {

    static final int QUEUES = 8;
    static final int KEYS = 40;
    static final long BASE_TS = 1_700_000_000_000L;
    static final DateTimeFormatter SQL_TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);

    static final Map<String, List<String>> UNIQ = new java.util.concurrent.ConcurrentHashMap<>();
    /** Event i: key i mod KEYS into queue i mod QUEUES, 10 ms after event i-1: each queue's times only rise. */
    static String event(int i) {
        return "{\"k\":\"k" + (i % KEYS) + "\",\"ts\":" + (BASE_TS + 10L * i) + "}";
    }

    /** {@code CREATE TABLE ev} reading the {@link #event}s of {@code topic}, watermarks 500 ms behind. */
    static String eventTable(String topic) {
        return "CREATE TABLE ev (k VARCHAR, ts TIMESTAMP(3), WATERMARK FOR ts AS withOffset(ts, 500))\n"
                + " WITH (type = 'rocketmq', topic = '" + topic + "');\n";
    }

    /** Events from..to-1 ({@link #event}). */
    static void produce(List<MessageQueue> queues, int from, int to) throws Exception {
        produce(queues, from, to, DistributedJobTest::event);
    }

    /**
     * Rows from..to-1 as made by {@code json}, row i into queue i mod the number of queues, in batches of 200: each
     * queue gets its rows in order.
     */
    static void produce(List<MessageQueue> queues, int from, int to, IntFunction<String> json) throws Exception {
        Map<Integer, List<Message>> byQueue = new TreeMap<>();
        for (int i = from; i < to; i++) {
            byQueue.computeIfAbsent(i % queues.size(), q -> new ArrayList<>())
                    .add(new Message(queues.get(0).getTopic(), json.apply(i).getBytes(StandardCharsets.UTF_8)));
        }
        for (Map.Entry<Integer, List<Message>> e : byQueue.entrySet()) {
            List<Message> batch = e.getValue();
            for (int i = 0; i < batch.size(); i += 200) {
                producer.send(batch.subList(i, Math.min(batch.size(), i + 200)), queues.get(e.getKey()));
            }
        }
    }

    /** An event an hour after event {@code total} in every queue: the watermark passes every event before it. */
    static void produceSentinels(List<MessageQueue> queues, int total) throws Exception {
        for (MessageQueue q : queues) {
            producer.send(new Message(q.getTopic(), ("{\"k\":\"sentinel\",\"ts\":" + (BASE_TS + 10L * total
                    + 3_600_000L) + "}").getBytes(StandardCharsets.UTF_8)), q);
        }
    }

    /** Both ways a RocketMQ sink after a shuffle is exactly-once: staged rows (the default), half messages. */
    @ParameterizedTest(name = "sink.transaction.mode = {0}")
    @ValueSource(strings = {"stage", "half-messages"})
    void twoInstancesShareTheQueuesAndAMovedTaskContinuesItsCounts(String mode) throws Exception {
        String in = topic("dist_in", QUEUES);
        String windows = topic(in + "_w", 4);
        String totals = topic(in + "_t", 4);
        String sinkMode = ", 'sink.transaction.mode' = '" + mode + "'";
        String script = eventTable(in)
                + "CREATE TABLE wc (k VARCHAR, ws TIMESTAMP(3), c BIGINT)\n"
                + " WITH (type = 'rocketmq', topic = '" + windows + "', keyColumns = 'k'" + sinkMode + ");\n"
                + "CREATE TABLE tc (k VARCHAR, c BIGINT, PRIMARY KEY (k) NOT ENFORCED)\n"
                + " WITH (type = 'rocketmq', topic = '" + totals + "', keyColumns = 'k'" + sinkMode + ");\n"
                + "INSERT INTO wc SELECT k, window_start, COUNT(*)\n"
                + " FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND))\n"
                + " GROUP BY k, window_start, window_end;\n"
                + "INSERT INTO tc SELECT k, COUNT(*) FROM ev GROUP BY k;\n";
        String jobName = "dist_" + in;
        List<MessageQueue> inQueues = queues(in);
        int total = 20_000;
        int firstPart = 8_000;
        produce(inQueues, 0, firstPart);

        Job a = start(jobName, script, "a");
        Job b = start(jobName, script, "b");
        DefaultLitePullConsumer windowReader = TopicReaders.fromStart(broker.nameServerAddress(), windows);
        DefaultLitePullConsumer totalReader = TopicReaders.fromStart(broker.nameServerAddress(), totals);
        Map<String, List<Long>> windowCounts = new TreeMap<>();
        Map<String, List<Long>> totalUpdates = new TreeMap<>();
        try {
            Await.until("both instances own source queues", Duration.ofSeconds(60),
                    () -> ownedTasks(a, "ev#") > 0 && ownedTasks(b, "ev#") > 0
                            && ownedTasks(a, "ev#") + ownedTasks(b, "ev#") == QUEUES);
            Await.until("the first totals", Duration.ofSeconds(60), () -> {
                read(totalReader, totalUpdates, "c");
                return totalUpdates.values().stream().mapToLong(List::size).sum() >= firstPart / 2;
            });
            // b leaves: a takes its source and shuffle queues, restoring the shuffle tasks' state.
            b.stop();
            assertEquals(JobInstance.State.STOPPED, b.state());
            produce(inQueues, firstPart, total);
            produceSentinels(inQueues, total);  // closes every window of the events above
            Map<String, Long> expectedWindows = new TreeMap<>();
            Map<String, Long> expectedTotals = new TreeMap<>();
            for (int i = 0; i < total; i++) {
                long ts = BASE_TS + 10L * i;
                expectedWindows.merge("k" + (i % KEYS) + "@" + SQL_TIMESTAMP.format(Instant.ofEpochMilli(ts - ts % 2000)),
                        1L, Long::sum);
                expectedTotals.merge("k" + (i % KEYS), 1L, Long::sum);
            }
            Await.until(() -> "every window and total; missing windows e.g. " + expectedWindows.keySet().stream()
                    .filter(w -> !windowCounts.containsKey(w)).limit(5).collect(Collectors.toList())
                    + ", updates of totals " + totalUpdates.entrySet().stream().limit(8).map(e -> e.getKey() + ": "
                    + e.getValue().size()).collect(Collectors.toList()), Duration.ofSeconds(90), () -> {
                read(windowReader, windowCounts, "ws");
                read(totalReader, totalUpdates, "c");
                // every update 1..n, not only the last: the broker's check may commit a leaving instance's last
                // transaction after rows its successor wrote (stored later, so read later)
                return windowCounts.keySet().containsAll(expectedWindows.keySet())
                        && expectedTotals.entrySet().stream().allMatch(e -> totalUpdates.getOrDefault(e.getKey(),
                        List.of()).size() >= e.getValue());
            });
            assertTrue(a.status().tasks.stream().anyMatch(t -> t.id.startsWith("exchange")),
                    "a runs shuffle tasks");
            List<String> wrong = new ArrayList<>();
            expectedWindows.forEach((w, c) -> {
                if (!windowCounts.get(w).equals(List.of(c))) {
                    wrong.add(w + " expected " + c + " got " + windowCounts.get(w));
                }
            });
            assertTrue(wrong.isEmpty(), wrong.size() + " windows wrong: " + wrong.subList(0,
                    Math.min(10, wrong.size())));
            assertEachCountRoseByOne(expectedTotals, totalUpdates, "the count of", () -> "; duplicates: "
                    + UNIQ.entrySet().stream().filter(e -> e.getValue().size() > 1).limit(10)
                    .collect(Collectors.toList()));
        } finally {
            windowReader.shutdown();
            totalReader.shutdown();
            a.stop();
            b.stop();
        }
    }

    /**
     * Session and sliced HOP windows, distributed: when one instance leaves, the other restores the moved tasks'
     * open sessions and slices, and every key's session and every window come out once with every event counted.
     */
    @Test
    void twoInstancesRunSessionAndHopWindowsAndAMovedTaskKeepsTheirState() throws Exception {
        String in = topic("dist_sw", QUEUES);
        String sessions = topic(in + "_s", 4);
        String hops = topic(in + "_h", 4);
        String script = eventTable(in)
                + "CREATE TABLE sw (k VARCHAR, ws TIMESTAMP(3), c BIGINT)\n"
                + " WITH (type = 'rocketmq', topic = '" + sessions + "', keyColumns = 'k');\n"
                + "CREATE TABLE hw (k VARCHAR, ws TIMESTAMP(3), c BIGINT)\n"
                + " WITH (type = 'rocketmq', topic = '" + hops + "', keyColumns = 'k');\n"
                + "INSERT INTO sw SELECT k, SESSION_START(ts, INTERVAL '1' SECOND), COUNT(*)\n"
                + " FROM ev GROUP BY k, SESSION(ts, INTERVAL '1' SECOND);\n"
                + "INSERT INTO hw SELECT k, window_start, COUNT(*)\n"
                + " FROM TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '4' SECOND, INTERVAL '10' SECOND))\n"
                + " GROUP BY k, window_start, window_end;\n";
        List<MessageQueue> inQueues = queues(in);
        int total = 12_000;
        int firstPart = 6_000;
        produce(inQueues, 0, firstPart);
        // A key's events are 400 ms apart: one session per key, open until the sentinel an hour later closes it.
        Map<String, Long> expectedSessions = new TreeMap<>();
        Map<String, Long> expectedHops = new TreeMap<>();
        for (int i = 0; i < total; i++) {
            long ts = BASE_TS + 10L * i;
            String k = "k" + (i % KEYS);
            expectedSessions.merge(k + "@" + SQL_TIMESTAMP.format(Instant.ofEpochMilli(BASE_TS + 10L * (i % KEYS))),
                    1L, Long::sum);
            for (long start = ts - ts % 4000; start > ts - 10_000; start -= 4000) {
                expectedHops.merge(k + "@" + SQL_TIMESTAMP.format(Instant.ofEpochMilli(start)), 1L, Long::sum);
            }
        }
        DefaultLitePullConsumer sessionReader = TopicReaders.fromStart(broker.nameServerAddress(), sessions);
        DefaultLitePullConsumer hopReader = TopicReaders.fromStart(broker.nameServerAddress(), hops);
        Map<String, List<Long>> sessionCounts = new TreeMap<>();
        Map<String, List<Long>> hopCounts = new TreeMap<>();
        try {
            runWithOneInstanceLeaving("dist_" + in, script, "exchange", () -> {
                read(hopReader, hopCounts, "ws");
                return hopCounts.size() >= KEYS * 5;
            }, () -> {
                produce(inQueues, firstPart, total);
                produceSentinels(inQueues, total);
            }, () -> "every session and window; have " + sessionCounts.size() + " sessions, " + hopCounts.size()
                    + " windows", () -> {
                read(sessionReader, sessionCounts, "ws");
                read(hopReader, hopCounts, "ws");
                return sessionCounts.keySet().containsAll(expectedSessions.keySet())
                        && hopCounts.keySet().containsAll(expectedHops.keySet());
            });
        } finally {
            sessionReader.shutdown();
            hopReader.shutdown();
        }
        Map<String, List<Long>> expected = new TreeMap<>();
        expectedSessions.forEach((w, c) -> expected.put("session " + w, List.of(c)));
        expectedHops.forEach((w, c) -> expected.put("hop " + w, List.of(c)));
        Map<String, List<Long>> got = new TreeMap<>();
        sessionCounts.forEach((w, c) -> got.put("session " + w, c));
        hopCounts.forEach((w, c) -> got.put("hop " + w, c));
        assertEquals(expected, got);
    }

    /**
     * A regular join of two topics, distributed: both sides reach the join's tasks through the shuffle by the join
     * key; when one instance leaves, the other restores the moved tasks' rows of both sides, so orders arriving after
     * the move still find their users. Every order comes out once, with its user's name.
     */
    @Test
    void twoInstancesJoinTwoStreamsAndAMovedTaskKeepsBothSides() throws Exception {
        String orders = topic("dist_orders", QUEUES);
        String users = topic(orders + "_users", 4);
        String joined = topic(orders + "_joined", 4);
        String script = "CREATE TABLE orders (order_id INT, user_id VARCHAR) WITH (type = 'rocketmq', topic = '"
                + orders + "');\n"
                + "CREATE TABLE users (user_id VARCHAR, name VARCHAR) WITH (type = 'rocketmq', topic = '" + users
                + "');\n"
                + "CREATE TABLE joined (order_id INT, name VARCHAR) WITH (type = 'rocketmq', topic = '" + joined
                + "');\n"
                + "INSERT INTO joined SELECT o.order_id, u.name FROM orders o JOIN users u ON o.user_id = u.user_id;\n";
        produceUsers(users);
        List<MessageQueue> orderQueues = queues(orders);
        int total = 4_000;
        int firstPart = 1_500;
        produceOrders(orderQueues, 0, firstPart);
        Map<Integer, List<String>> names = runWithOneInstanceLeaving("dist_" + orders, script, joined, "exchange",
                firstPart, total, () -> produceOrders(orderQueues, firstPart, total), DistributedJobTest::readJoined);
        assertEachRow(names, (order, got) -> got.equals(List.of("n" + (order % KEYS))));
    }

    /**
     * An event-time interval join of two topics, distributed: both sides' rows are kept in the join tasks' state
     * (one entry per row) until the watermark passes their range; when one instance leaves, the other restores the
     * moved tasks' orders, so payments arriving after the move still find them. Every order comes out once, with its
     * payment.
     */
    @Test
    void twoInstancesRunAnIntervalJoinAndAMovedTaskKeepsItsRows() throws Exception {
        String orders = topic("dist_iv_orders", QUEUES);
        String payments = topic(orders + "_payments", 4);
        String joined = topic(orders + "_joined", 4);
        String script = "CREATE TABLE orders (order_id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS withOffset(ts, 1000))"
                + " WITH (type = 'rocketmq', topic = '" + orders + "');\n"
                + "CREATE TABLE payments (order_id INT, amount BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS"
                + " withOffset(ts, 1000)) WITH (type = 'rocketmq', topic = '" + payments + "');\n"
                + "CREATE TABLE joined (order_id INT, amount BIGINT) WITH (type = 'rocketmq', topic = '" + joined
                + "');\n"
                + "INSERT INTO joined SELECT o.order_id, p.amount FROM orders o JOIN payments p"
                + " ON o.order_id = p.order_id AND p.ts BETWEEN o.ts AND o.ts + INTERVAL '1' HOUR;\n";
        int total = 3_000;
        int firstPart = 1_200;
        List<MessageQueue> orderQueues = queues(orders);
        List<MessageQueue> paymentQueues = queues(payments);
        produce(orderQueues, 0, total, i -> "{\"order_id\":" + i + ",\"ts\":" + (BASE_TS + 10L * i) + "}");
        IntFunction<String> payment = i -> "{\"order_id\":" + i + ",\"amount\":" + (i * 3)
                + ",\"ts\":" + (BASE_TS + 10L * i + 1000) + "}";
        produce(paymentQueues, 0, firstPart, payment);
        Map<Integer, List<Long>> amounts = runWithOneInstanceLeaving("dist_" + orders, script, joined, "exchange",
                firstPart, total, () -> produce(paymentQueues, firstPart, total, payment),
                DistributedJobTest::readAmounts);
        assertEachRow(amounts, (order, got) -> got.equals(List.of(order * 3L)));
    }

    /**
     * A lookup join with a file dimension table in two instances: each loads its own full cache and joins the orders
     * of the queues it owns; when one stops, the other takes its queues over and every order is joined once.
     */
    @Test
    void twoInstancesLookUpADimensionTableAndAMovedQueueContinues() throws Exception {
        String orders = topic("dist_lookup", QUEUES);
        String joined = topic(orders + "_joined", 4);
        StringBuilder users = new StringBuilder();
        for (int j = 0; j < KEYS; j++) {
            users.append("{\"user_id\":\"u").append(j).append("\",\"name\":\"n").append(j).append("\"}\n");
        }
        Path dim = java.nio.file.Files.writeString(stateDir.getParent().resolve(orders + ".jsonl"), users);
        String script = "CREATE TABLE orders (order_id INT, user_id VARCHAR, proc AS PROCTIME()) WITH (type = "
                + "'rocketmq', topic = '" + orders + "');\n"
                + "CREATE TABLE users (user_id VARCHAR, name VARCHAR, PRIMARY KEY (user_id) NOT ENFORCED) WITH ("
                + "type = 'file', filePath = '" + dim + "');\n"
                + "CREATE TABLE joined (order_id INT, name VARCHAR) WITH (type = 'rocketmq', topic = '" + joined
                + "');\n"
                + "INSERT INTO joined SELECT o.order_id, u.name FROM orders o JOIN users FOR SYSTEM_TIME AS OF o.proc "
                + "AS u ON o.user_id = u.user_id;\n";
        List<MessageQueue> orderQueues = queues(orders);
        int total = 3_000;
        int firstPart = 1_000;
        produceOrders(orderQueues, 0, firstPart);
        Map<Integer, List<String>> names = runWithOneInstanceLeaving("dist_" + orders, script, joined, "orders#",
                firstPart, total, () -> produceOrders(orderQueues, firstPart, total), DistributedJobTest::readJoined);
        assertEachRow(names, (order, got) -> got.equals(List.of("n" + (order % KEYS))));
    }

    /**
     * An IN subquery, distributed: a semi join whose tasks get both sides through the shuffle by the key; when one
     * instance leaves, the other restores the moved tasks' users, so later orders of a known user still pass. Every
     * order of a user in the subquery comes out once, and none of the user left out.
     */
    @Test
    void twoInstancesRunASemiJoinAndAMovedTaskKeepsItsRows() throws Exception {
        String orders = topic("dist_semi", QUEUES);
        String users = topic(orders + "_users", 4);
        String passed = topic(orders + "_passed", 4);
        String script = "CREATE TABLE orders (order_id INT, user_id VARCHAR) WITH (type = 'rocketmq', topic = '"
                + orders + "');\n"
                + "CREATE TABLE users (user_id VARCHAR, name VARCHAR) WITH (type = 'rocketmq', topic = '" + users
                + "');\n"
                + "CREATE TABLE passed (order_id INT, name VARCHAR) WITH (type = 'rocketmq', topic = '" + passed
                + "');\n"
                + "INSERT INTO passed SELECT order_id, user_id FROM orders\n"
                + "  WHERE user_id IN (SELECT user_id FROM users WHERE name <> 'n7');\n";
        produceUsers(users);
        List<MessageQueue> orderQueues = queues(orders);
        int total = 2_000;
        int firstPart = 800;
        long expected = java.util.stream.IntStream.range(0, total).filter(i -> i % KEYS != 7).count();
        produceOrders(orderQueues, 0, firstPart);
        Map<Integer, List<String>> got = runWithOneInstanceLeaving("dist_" + orders, script, passed, "exchange",
                firstPart, (int) expected, () -> produceOrders(orderQueues, firstPart, total),
                DistributedJobTest::readJoined);
        assertEachRow(got, (order, users0) -> order % KEYS != 7 && users0.equals(List.of("u" + (order % KEYS))));
        assertEquals(expected, got.size());
    }

    /**
     * COUNT(DISTINCT) distributed: each distinct order of a user is a state entry of the aggregation's task; when one
     * instance leaves, the other restores the moved tasks' distinct values, so the orders sent again after the move
     * are not counted twice. Each user's count rises exactly 1..n, whichever instance counted.
     */
    @Test
    void twoInstancesCountDistinctAndAMovedTaskKeepsItsValues() throws Exception {
        String orders = topic("dist_cd_orders", QUEUES);
        String counts = topic(orders + "_counts", 4);
        String script = "CREATE TABLE orders (order_id INT, user_id VARCHAR) WITH (type = 'rocketmq', topic = '"
                + orders + "');\n"
                + "CREATE TABLE counts (k VARCHAR, c BIGINT, PRIMARY KEY (k) NOT ENFORCED)\n"
                + " WITH (type = 'rocketmq', topic = '" + counts + "', keyColumns = 'k');\n"
                + "INSERT INTO counts SELECT user_id, COUNT(DISTINCT order_id) FROM orders GROUP BY user_id;\n";
        List<MessageQueue> orderQueues = queues(orders);
        int total = 4_000;
        int firstPart = 1_500;
        produceOrders(orderQueues, 0, firstPart);
        Map<String, Long> expected = new TreeMap<>();
        for (int i = 0; i < total; i++) {
            expected.merge("u" + (i % KEYS), 1L, Long::sum);
        }
        DefaultLitePullConsumer reader = TopicReaders.fromStart(broker.nameServerAddress(), counts);
        Map<String, List<Long>> updates = new TreeMap<>();
        try {
            runWithOneInstanceLeaving("dist_" + orders, script, "exchange", () -> {
                read(reader, updates, "c");
                return updates.values().stream().mapToLong(List::size).sum() >= firstPart / 2;
            }, () -> produceOrders(orderQueues, 0, total), // the first part again, then the rest
                    () -> "every count; have " + updates.size() + " users", () -> {
                read(reader, updates, "c");
                return expected.entrySet().stream().allMatch(e -> updates.getOrDefault(e.getKey(), List.of())
                        .contains(e.getValue()));
            });
        } finally {
            reader.shutdown();
        }
        assertEachCountRoseByOne(expected, updates, "the distinct count of", () -> "");
    }

    /**
     * Runs the job on instances a and b; once half the first part is out and b owns some of {@code movedTask}'s
     * tasks, b leaves, {@code rest} is produced, and the rows of the sink topic are read until {@code expected} keys
     * are out. The rows read, per key.
     */
    private <V> Map<Integer, List<V>> runWithOneInstanceLeaving(
            String jobName, String script, String sinkTopic, String movedTask, int firstPart, int expected,
            Production rest, BiConsumer<DefaultLitePullConsumer, Map<Integer, List<V>>> read) throws Exception {
        DefaultLitePullConsumer reader = TopicReaders.fromStart(broker.nameServerAddress(), sinkTopic);
        Map<Integer, List<V>> got = new TreeMap<>();
        try {
            runWithOneInstanceLeaving(jobName, script, movedTask, () -> {
                read.accept(reader, got);
                return got.size() >= firstPart / 2;
            }, rest, () -> "every row out; have " + got.size() + " of " + expected, () -> {
                read.accept(reader, got);
                return got.size() >= expected;
            });
            return got;
        } finally {
            reader.shutdown();
        }
    }

    /** Every row counted once: the updates of each key's count are exactly 1..n, whichever instance counted. */
    static void assertEachCountRoseByOne(Map<String, Long> expected, Map<String, List<Long>> updates, String what,
                                         Supplier<String> more) {
        expected.forEach((k, n) -> {
            List<Long> got = new ArrayList<>(updates.get(k));
            got.sort(Long::compare);
            List<Long> want = new ArrayList<>();
            for (long c = 1; c <= n; c++) {
                want.add(c);
            }
            assertEquals(want, got, () -> "updates of " + what + " " + k + more.get());
        });
    }

    /** Every key came out once, with the right row. */
    static <V> void assertEachRow(Map<Integer, List<V>> got, BiPredicate<Integer, List<V>> right) {
        List<String> wrong = new ArrayList<>();
        got.forEach((key, rows) -> {
            if (!right.test(key, rows)) {
                wrong.add(key + " -> " + rows);
            }
        });
        assertTrue(wrong.isEmpty(), wrong.size() + " rows wrong or twice: "
                + wrong.subList(0, Math.min(10, wrong.size())));
    }

    /** User j, named nj, into queue j mod the topic's queues. */
    static void produceUsers(String topic) throws Exception {
        List<MessageQueue> queues = queues(topic);
        for (int j = 0; j < KEYS; j++) {
            producer.send(new Message(topic, ("{\"user_id\":\"u" + j + "\",\"name\":\"n" + j + "\"}")
                    .getBytes(StandardCharsets.UTF_8)), queues.get(j % queues.size()));
        }
    }

    static void readAmounts(DefaultLitePullConsumer reader, Map<Integer, List<Long>> into) {
        for (List<MessageExt> batch = reader.poll(50); !batch.isEmpty(); batch = reader.poll(50)) {
            for (MessageExt m : batch) {
                JSONObject row = JSON.parseObject(new String(m.getBody(), StandardCharsets.UTF_8));
                into.computeIfAbsent(row.getInteger("order_id"), x -> new ArrayList<>()).add(row.getLong("amount"));
            }
        }
    }

    /** Order i, of user i mod KEYS, into queue i mod QUEUES. */
    static void produceOrders(List<MessageQueue> queues, int from, int to) throws Exception {
        produce(queues, from, to, i -> "{\"order_id\":" + i + ",\"user_id\":\"u" + (i % KEYS) + "\"}");
    }

    static void readJoined(DefaultLitePullConsumer reader, Map<Integer, List<String>> into) {
        for (List<MessageExt> batch = reader.poll(50); !batch.isEmpty(); batch = reader.poll(50)) {
            for (MessageExt m : batch) {
                JSONObject row = JSON.parseObject(new String(m.getBody(), StandardCharsets.UTF_8));
                into.computeIfAbsent(row.getInteger("order_id"), x -> new ArrayList<>()).add(row.getString("name"));
            }
        }
    }

    /** Adds what the reader has now; a window is "key@start", a total "key". */
    static void read(DefaultLitePullConsumer reader, Map<String, List<Long>> into, String field) {
        for (List<MessageExt> batch = reader.poll(50); !batch.isEmpty(); batch = reader.poll(50)) {
            add(batch, into, field);
        }
    }

    static void add(List<MessageExt> messages, Map<String, List<Long>> into, String field) {
        for (MessageExt m : messages) {
            JSONObject row = JSON.parseObject(new String(m.getBody(), StandardCharsets.UTF_8));
            String k = row.getString("k");
            if ("sentinel".equals(k)) {
                continue;
            }
            String key = field.equals("ws") ? k + "@" + row.getString("ws") : k;
            into.computeIfAbsent(key, x -> new ArrayList<>()).add(row.getLong("c"));
            UNIQ.computeIfAbsent(key + "=" + row.getLong("c"), x -> new ArrayList<>())
                    .add(m.getProperty("UNIQ_KEY") + "@" + m.getQueueId() + ":" + m.getQueueOffset() + " "
                            + m.getProperty("rsql_txn"));
        }
    }
}
