package dev.rsql.runtime.connector.rocketmq;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.aggregate.CountFunction;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.await;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.broker;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.createTopic;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.engineConfig;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.maxOffset;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.produce;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.startJob;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.table;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job with state re-run with its source table on another topic: the checkpoint's queue offsets belong to the old
 * topic and are not applied to the new one, nor are the consumer group's offsets of the new topic; it is read from
 * its startup mode, while the state carries on.
 */
@ExtendWith(RocketMqTestSupport.class)
class RocketMqSourceIdentityTest {

    static final List<Column> EVENTS = List.of(Column.physical("k", DataType.string()),
            Column.physical("v", DataType.of(DataType.Kind.BIGINT)));
    static final RowType COUNTS = RowType.builder().field("k", DataType.string())
            .field("cnt", DataType.of(DataType.Kind.BIGINT).notNull()).build();

    /** COUNT(*) per key of the topic's events, into the collect sink {@code collectId}. */
    static JobGraph graph(String job, String topic, String group, String collectId) {
        GraphBuilder b = new GraphBuilder(job);
        b.source(table("events", EVENTS, Map.of("topic", topic, "consumerGroup", group)))
                .exchange(0)
                .groupAggregate(new int[]{0}, List.of(new AggregateCall("COUNT(*)", () -> new CountFunction(-1))),
                        COUNTS, 0, true)
                .sinkTo(RocketMqSourceTest.collect(collectId, List.of(Column.physical("k", DataType.string()),
                        Column.physical("cnt", DataType.of(DataType.Kind.BIGINT).notNull()))));
        return b.build();
    }

    static List<String> events(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add("{\"k\":\"a\",\"v\":" + i + "}");
        }
        return out;
    }

    /** The latest count the aggregation emitted for key a, or 0. */
    static long count(String collectId) {
        List<Row> rows = CollectSinkFactory.rows(collectId);
        return rows.isEmpty() ? 0 : (Long) rows.get(rows.size() - 1).get(1);
    }

    /** Records the job's source tasks read (its partition tasks count their input too). */
    static long sourceRecordsIn(JobInstance job) {
        return job.status().tasks.stream().filter(t -> t.id.startsWith("events#")).mapToLong(t -> t.recordsIn).sum();
    }

    @Test
    void aChangedTopicIsReadFromItsStartupModeWithTheStateKept() throws Exception {
        String job = unique("identity_job");
        String group = unique("identity_group");
        String collectId = unique("identity");
        String oldTopic = createTopic("identity_old", 2);
        produce(oldTopic, events(400));
        JobInstance first = startJob(graph(job, oldTopic, group, collectId), engineConfig(unique("identity-1")));
        try {
            await(Duration.ofSeconds(60), () -> count(collectId) == 400, () -> "count 400, got " + count(collectId));
        } finally {
            first.stop();   // a checkpoint at offsets ~200 of both queues of the old topic
        }

        // The new topic has fewer messages than those offsets: applied to it, they would skip every one. The group
        // even has offsets for it, at its end, as if an earlier run had read it.
        String newTopic = createTopic("identity_new", 2);
        produce(newTopic, events(40));
        for (int q = 0; q < 2; q++) {
            broker().brokerController().getConsumerOffsetManager().commitOffset("test", group, newTopic, q,
                    maxOffset(newTopic, q));
        }
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger matchLog = (Logger) LoggerFactory.getLogger("dev.rsql.runtime.exec.CheckpointMatch");
        matchLog.addAppender(log);
        log.start();
        JobInstance second = startJob(graph(job, newTopic, group, collectId), engineConfig(unique("identity-2")));
        try {
            await(Duration.ofSeconds(60), () -> count(collectId) == 440, () -> "count 440, got " + count(collectId));
            assertEquals(40, sourceRecordsIn(second), "records read from the new topic");
        } finally {
            second.stop();
            matchLog.detachAppender(log);
        }
        assertTrue(log.list.stream().anyMatch(e -> e.getFormattedMessage().equals("job=" + job + " table=events:"
                        + " checkpointed positions are of another source (rocketmq topic " + oldTopic
                        + "; now rocketmq topic " + newTopic + "): not applied, it starts from its startup mode")),
                "no log line of the changed source: " + log.list);
        assertEquals(440, count(collectId));
    }
}
