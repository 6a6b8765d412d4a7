package dev.rsql.runtime.connector.rocketmq;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.await;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.createTopic;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.engineConfig;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.produce;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.readAll;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.startJob;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.storedCount;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.table;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RocketMQ in, filter and projection, RocketMQ out; then a graceful stop and a restart in the same group. */
@ExtendWith(RocketMqTestSupport.class)
class RocketMqEndToEndTest {

    private static final RowType OUT = RowType.builder()
            .field("id", DataType.of(DataType.Kind.BIGINT))
            .field("name", DataType.string())
            .field("score", DataType.of(DataType.Kind.INT))
            .build();

    @Test
    void filterProjectRestartWithoutLossOrDuplicates() throws Exception {
        String in = createTopic("e2e_in", 4);
        String out = createTopic("e2e_out", 4);
        String jobName = unique("e2e/orders");

        TableDescriptor source = table("orders", List.of(
                Column.physical("id", DataType.of(DataType.Kind.BIGINT)),
                Column.physical("name", DataType.string()),
                Column.physical("amount", DataType.of(DataType.Kind.INT))), Map.of("topic", in));
        TableDescriptor sink = table("scores", List.of(
                Column.physical("id", DataType.of(DataType.Kind.BIGINT)),
                Column.physical("name", DataType.string()),
                Column.physical("score", DataType.of(DataType.Kind.INT))),
                Map.of("topic", out, "sink.key-columns", "id"));

        GraphBuilder b = new GraphBuilder(jobName);
        b.source(source)
                .filter(r -> (Integer) r[2] % 3 != 0)
                .map(OUT, r -> new Object[]{r[0], ((String) r[1]).toUpperCase(), (Integer) r[2] * 10})
                .sinkTo(sink);
        JobGraph graph = b.build();

        // Phase 1: 10,000 messages, produced before the job starts (a fresh group starts at the earliest offset).
        int first = 10_000;
        long p0 = System.nanoTime();
        produce(in, messages(0, first));
        long produceMs = (System.nanoTime() - p0) / 1_000_000;
        Map<String, Integer> expected = expected(0, first);
        int expectedCount = expected.values().stream().mapToInt(Integer::intValue).sum();

        long t0 = System.nanoTime();
        JobInstance job = startJob(graph, engineConfig("e2e-1"));
        await("4 queues assigned", Duration.ofSeconds(30), () -> RocketMqTestSupport.runningTasks(job) == 4);
        long t1 = System.nanoTime();
        await(Duration.ofSeconds(60), () -> storedCount(out) >= expectedCount,
                () -> "sink topic to hold " + expectedCount + " rows, has " + storedCount(out));
        long t2 = System.nanoTime();
        job.stop();
        assertEquals(JobInstance.State.STOPPED, job.state());
        long totalMs = (t2 - t0) / 1_000_000;
        long processMs = Math.max(1, (t2 - t1) / 1_000_000);
        System.out.printf("[e2e] produced %d messages in %d ms; the job wrote all %d rows %d ms after start, "
                        + "%d ms after its 4 queues were assigned (%.0f input messages/s)%n",
                first, produceMs, expectedCount, totalMs, processMs, first * 1000.0 / processMs);

        Map<String, Integer> got = counts(readAll(out));
        assertEquals(expected, got, "phase 1: exact multiset of output rows");

        // Phase 2: 2,000 more while stopped, then a new instance of the same job (same consumer group).
        int second = 2_000;
        produce(in, messages(first, second));
        expected = expected(0, first + second);
        int expectedTotal = expected.values().stream().mapToInt(Integer::intValue).sum();
        JobInstance job2 = startJob(graph, engineConfig("e2e-2"));
        await(Duration.ofSeconds(60), () -> storedCount(out) >= expectedTotal,
                () -> "sink topic to hold " + expectedTotal + " rows, has " + storedCount(out));
        job2.stop();

        List<MessageExt> all = readAll(out);
        Map<String, Integer> finalCounts = counts(all);
        int duplicates = 0;
        for (Map.Entry<String, Integer> e : expected.entrySet()) {
            int n = finalCounts.getOrDefault(e.getKey(), 0);
            assertTrue(n >= e.getValue(), "missing row " + e.getKey());
            duplicates += n - e.getValue();
        }
        Set<String> unexpected = new HashSet<>(finalCounts.keySet());
        unexpected.removeAll(expected.keySet());
        assertTrue(unexpected.isEmpty(), "unexpected rows " + unexpected);
        System.out.printf("[e2e] after restart: %d rows in the sink, %d expected, %d duplicates%n", all.size(),
                expectedTotal, duplicates);
        assertEquals(0, duplicates, "a graceful stop and restart must not replay anything");

        // Same key, same queue: every row of one id is on one queue.
        Map<Long, Set<Integer>> queuesById = new HashMap<>();
        for (MessageExt m : all) {
            queuesById.computeIfAbsent(Long.parseLong(m.getKeys()), k -> new HashSet<>()).add(m.getQueueId());
        }
        queuesById.forEach((id, qs) -> assertEquals(1, qs.size(), "id " + id + " on queues " + qs));
    }

    private static List<String> messages(int from, int count) {
        List<String> out = new ArrayList<>(count);
        for (int i = from; i < from + count; i++) {
            out.add("{\"id\":" + i + ",\"name\":\"n" + i + "\",\"amount\":" + (i % 97) + ",\"extra\":\"x\"}");
        }
        return out;
    }

    private static Map<String, Integer> expected(int from, int count) {
        Map<String, Integer> m = new HashMap<>();
        for (int i = from; i < from + count; i++) {
            int amount = i % 97;
            if (amount % 3 != 0) {
                m.merge(i + "|N" + i + "|" + amount * 10, 1, Integer::sum);
            }
        }
        return m;
    }

    private static Map<String, Integer> counts(List<MessageExt> messages) {
        Map<String, Integer> m = new HashMap<>();
        for (MessageExt msg : messages) {
            JSONObject o = JSON.parseObject(RocketMqTestSupport.body(msg));
            m.merge(o.getLong("id") + "|" + o.getString("name") + "|" + o.getInteger("score"), 1, Integer::sum);
        }
        return m;
    }
}
