package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.exec.TaskStatus;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.types.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.await;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.createTopic;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.engineConfig;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.produce;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.runningTasks;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.startJob;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.table;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two instances of one job in one consumer group share a topic's queues. */
@ExtendWith(RocketMqTestSupport.class)
class RocketMqRebalanceTest {

    @Test
    void twoInstancesSplitTheQueuesAndTogetherReadEverything() throws Exception {
        String topic = createTopic("split", 4);
        List<Column> columns = List.of(Column.physical("id", DataType.of(DataType.Kind.BIGINT)),
                Column.physical("name", DataType.string()));
        String collectId = unique("split");
        GraphBuilder b = new GraphBuilder(unique("split_job"));
        b.source(table("events", columns, Map.of("topic", topic)))
                .sinkTo(RocketMqSourceTest.collect(collectId, columns));
        JobGraph graph = b.build();

        produce(topic, bodies(0, 2_000));
        JobInstance a = startJob(graph, engineConfig("instance-a"));
        await("instance a to own all 4 queues", Duration.ofSeconds(30), () -> runningTasks(a) == 4);
        await("instance a to read the first 2000", Duration.ofSeconds(30),
                () -> CollectSinkFactory.rows(collectId).size() >= 2_000);

        // Instance b joins while messages keep arriving: a revokes two queues mid-stream. It is another process of
        // the job, as on another machine: one state directory has one owner.
        Map<String, String> configB = engineConfig("instance-b");
        configB.put("state.dir", configB.get("state.dir") + "-b");
        JobInstance b2 = startJob(graph, configB);
        int total = 2_000 + 30_000 + 2_000;
        try {
            produce(topic, bodies(2_000, 30_000));
            await(Duration.ofSeconds(60), () -> runningTasks(a) == 2 && runningTasks(b2) == 2,
                    () -> "a 2/2 split, got a=" + runningTasks(a) + " b=" + runningTasks(b2));
            Set<String> shardsA = running(a);
            Set<String> shardsB = running(b2);
            Set<String> overlap = new HashSet<>(shardsA);
            overlap.retainAll(shardsB);
            assertTrue(overlap.isEmpty(), "a " + shardsA + " and b " + shardsB + " must not share queues");

            produce(topic, bodies(32_000, 2_000));
            await(Duration.ofSeconds(60), () -> distinctIds(collectId).size() >= total,
                    () -> total + " distinct ids, got " + distinctIds(collectId).size());
            long readByB = b2.status().recordsIn();
            long readByA = a.status().recordsIn();
            assertTrue(readByB > 0, "instance b read part of the topic");
            System.out.printf("[rebalance] a owns %s, b owns %s; a read %d, b read %d%n", shardsA, shardsB, readByA,
                    readByB);
        } finally {
            b2.stop();
            a.stop();
        }
        List<Row> rows = CollectSinkFactory.rows(collectId);
        Set<Long> ids = distinctIds(collectId);
        for (long i = 0; i < total; i++) {
            assertTrue(ids.contains(i), "missing id " + i);
        }
        assertEquals(total, ids.size());
        Map<Long, Integer> counts = new HashMap<>();
        rows.forEach(r -> counts.merge((Long) r.get(0), 1, Integer::sum));
        long duplicates = counts.values().stream().filter(c -> c > 1).mapToLong(c -> c - 1).sum();
        System.out.printf("[rebalance] %d rows for %d messages, %d duplicates (at-least-once across a rebalance)%n",
                rows.size(), total, duplicates);
    }

    private static Set<String> running(JobInstance job) {
        return job.status().tasks.stream().filter(t -> t.state == TaskStatus.State.RUNNING).map(t -> t.shard)
                .collect(Collectors.toSet());
    }

    private static Set<Long> distinctIds(String collectId) {
        return CollectSinkFactory.rows(collectId).stream().map(r -> (Long) r.get(0)).collect(Collectors.toSet());
    }

    private static List<String> bodies(int from, int count) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            out.add("{\"id\":" + i + ",\"name\":\"n" + i + "\"}");
        }
        return out;
    }
}
