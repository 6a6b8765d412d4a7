package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static dev.rsql.e2e.DistributedJobTest.KEYS;
import static dev.rsql.e2e.DistributedJobTest.eventTable;
import static dev.rsql.e2e.DistributedJobTest.QUEUES;
import static dev.rsql.e2e.DistributedJobTest.produce;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A mini-batch GROUP BY in two phases, distributed over two instances: each source task folds its batches into
 * partial accumulators before the shuffle, the shuffle tasks merge them into state. When one instance leaves
 * mid-stream (batches buffered), the other restores the moved tasks' state and the sources
 * replay from the last checkpoint: every event is counted once, nothing lost and nothing doubled. The transactional
 * sink writes a key once per checkpoint (its last upsert).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DistributedMiniBatchTest extends DistributedJobFixture {

    /** Transactions (checkpoints) in which each key was written. */
    private final Map<String, List<String>> transactions = new TreeMap<>();

    /** Adds each key's (count, distinct count) updates the reader has now. */
    private void read(DefaultLitePullConsumer reader, Map<String, List<String>> into) {
        for (List<MessageExt> batch = reader.poll(50); !batch.isEmpty(); batch = reader.poll(50)) {
            for (MessageExt m : batch) {
                JSONObject row = JSON.parseObject(new String(m.getBody(), StandardCharsets.UTF_8));
                into.computeIfAbsent(row.getString("k"), x -> new ArrayList<>())
                        .add(row.getLong("c") + "/" + row.getLong("d"));
                transactions.computeIfAbsent(row.getString("k"), x -> new ArrayList<>())
                        .add(m.getProperty("rsql_txn"));
            }
        }
    }

    @Test
    void twoPhaseCountsEveryEventOnceWhenATaskMoves() throws Exception {
        String in = topic("dist_mb", QUEUES);
        String out = topic(in + "_out", 4);
        String script = "SET 'table.exec.mini-batch.enabled' = 'true';\n"
                + "SET 'table.exec.mini-batch.allow-latency' = '100 ms';\n"
                + "SET 'table.exec.mini-batch.size' = '100';\n"
                // several batches per checkpoint, so that the sink has upserts of a key to coalesce
                + "SET 'checkpoint.interval' = '2 s';\n"
                + eventTable(in)
                + "CREATE TABLE tc (k VARCHAR, c BIGINT, d BIGINT, PRIMARY KEY (k) NOT ENFORCED)\n"
                + " WITH (type = 'rocketmq', topic = '" + out + "', keyColumns = 'k');\n"
                + "INSERT INTO tc SELECT k, COUNT(*), COUNT(DISTINCT ts) FROM ev GROUP BY k;\n";
        PlannerContext context = new PlannerContext(new Options(Map.of("rocketmq.namesrv",
                broker.nameServerAddress())), getClass().getClassLoader(), n -> null);
        String explain = String.join("\n", new ScriptPlanner(context).plan("t", script).physicalPlans());
        assertTrue(explain.contains("LocalGroupAggregate(") && explain.contains("GlobalGroupAggregate("), explain);

        List<MessageQueue> queues = queues(in);
        int total = 12_000;
        int firstPart = 5_000;
        produce(queues, 0, firstPart);
        Map<String, String> expected = new TreeMap<>();
        for (int k = 0; k < KEYS; k++) {
            long n = total / KEYS + (k < total % KEYS ? 1 : 0);
            expected.put("k" + k, n + "/" + n);
        }
        DefaultLitePullConsumer reader = TopicReaders.fromStart(broker.nameServerAddress(), out);
        Map<String, List<String>> updates = new TreeMap<>();
        try {
            runWithOneInstanceLeaving("dist_" + in, script, "exchange", () -> {
                read(reader, updates);
                return updates.size() == KEYS;
            }, () -> produce(queues, firstPart, total), () -> "every final count; have " + updates.entrySet()
                    .stream().limit(5).map(e -> e.getKey() + "=" + e.getValue().get(e.getValue().size() - 1))
                    .toList(), () -> {
                read(reader, updates);
                return expected.entrySet().stream().allMatch(e -> updates.getOrDefault(e.getKey(), List.of())
                        .contains(e.getValue()));
            });
            expected.forEach((k, want) -> {
                List<String> got = updates.get(k);
                // Counts only grow: the last update per key is the final one, and none exceeds it (nothing doubled).
                assertEquals(want, got.get(got.size() - 1), "last update of " + k + ": " + got);
                long max = got.stream().mapToLong(s -> Long.parseLong(s.split("/")[0])).max().orElseThrow();
                assertEquals(Long.parseLong(want.split("/")[0]), max, "updates of " + k + ": " + got);
                // The transactional sink coalesces a key's upserts: one message per key and checkpoint.
                List<String> txns = transactions.get(k);
                assertEquals(txns.stream().distinct().count(), txns.size(), "transactions of " + k + ": " + txns);
            });
        } finally {
            reader.shutdown();
        }
    }
}
