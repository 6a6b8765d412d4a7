package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.testing.Await;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static dev.rsql.e2e.DistributedJobTest.BASE_TS;
import static dev.rsql.e2e.DistributedJobTest.KEYS;
import static dev.rsql.e2e.DistributedJobTest.eventTable;
import static dev.rsql.e2e.DistributedJobTest.QUEUES;
import static dev.rsql.e2e.DistributedJobTest.produce;
import static dev.rsql.e2e.DistributedJobTest.produceSentinels;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OVER aggregations distributed over two instances: rows reach the over tasks through the shuffle by the partition
 * key; when one instance leaves, the other restores the moved tasks' accumulators, frames and pending rows, so the
 * counts go on where they were. Every row comes out once, with the counts of its place in its key's time order.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DistributedOverTest extends DistributedJobFixture {

    /** Adds the rows the reader has now, by "key@time", each with its counts. */
    private static void read(DefaultLitePullConsumer reader, Map<String, List<String>> into) {
        for (List<MessageExt> batch = reader.poll(50); !batch.isEmpty(); batch = reader.poll(50)) {
            for (MessageExt m : batch) {
                JSONObject row = JSON.parseObject(new String(m.getBody(), StandardCharsets.UTF_8));
                if (!"sentinel".equals(row.getString("k"))) {
                    into.computeIfAbsent(row.getString("k") + "@" + row.getString("ts"), x -> new ArrayList<>())
                            .add(row.getLong("c") + "/" + row.getLong("r"));
                }
            }
        }
    }

    @Test
    void twoInstancesComputeOverWindowsAndAMovedTaskKeepsItsWindows() throws Exception {
        String in = topic("dist_over", QUEUES);
        String out = topic(in + "_out", 4);
        String script = eventTable(in)
                + "CREATE TABLE oc (k VARCHAR, ts TIMESTAMP(3), c BIGINT, r BIGINT)\n"
                + " WITH (type = 'rocketmq', topic = '" + out + "');\n"
                + "INSERT INTO oc SELECT k, ts,\n"
                + "  COUNT(*) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),\n"
                + "  COUNT(*) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '1' SECOND PRECEDING AND"
                + " CURRENT ROW)\n FROM ev;\n";
        List<MessageQueue> queues = queues(in);
        int total = 4_000;
        int firstPart = 1_500;
        produce(queues, 0, firstPart);
        String jobName = "dist_" + in;
        Job a = start(jobName, script, "a");
        Job b = start(jobName, script, "b");
        DefaultLitePullConsumer reader = TopicReaders.fromStart(broker.nameServerAddress(), out);
        Map<String, List<String>> rows = new TreeMap<>();
        try {
            Await.until("the first rows", Duration.ofSeconds(60), () -> {
                read(reader, rows);
                return rows.size() >= firstPart / 2 && ownedTasks(b, "exchange") > 0;
            });
            b.stop();
            produce(queues, firstPart, total);
            produceSentinels(queues, total);
            Map<String, String> expected = new TreeMap<>();
            for (int i = 0; i < total; i++) {
                // A key's events are 400 ms apart: the last second holds the event and up to two before it.
                int place = i / KEYS;
                expected.put("k" + (i % KEYS) + "@" + DistributedJobTest.SQL_TIMESTAMP.format(
                        Instant.ofEpochMilli(BASE_TS + 10L * i)), (place + 1) + "/" + Math.min(place + 1, 3));
            }
            Await.until(() -> "every row; have " + rows.size() + " of " + total, Duration.ofSeconds(90), () -> {
                read(reader, rows);
                return rows.keySet().containsAll(expected.keySet());
            });
            List<String> wrong = new ArrayList<>();
            expected.forEach((row, counts) -> {
                if (!rows.get(row).equals(List.of(counts))) {
                    wrong.add(row + " expected " + counts + " got " + rows.get(row));
                }
            });
            assertTrue(wrong.isEmpty(), wrong.size() + " rows wrong or repeated: "
                    + wrong.subList(0, Math.min(10, wrong.size())));
            // the metrics of the tasks that took b's queues over tell how long their state took to restore
            assertTrue(a.status().tasks.stream().anyMatch(t -> t.id.startsWith("exchange")
                    && t.metrics.restoreNanos() >= 0), "a restored task");
        } finally {
            reader.shutdown();
            a.stop();
            b.stop();
        }
    }
}
