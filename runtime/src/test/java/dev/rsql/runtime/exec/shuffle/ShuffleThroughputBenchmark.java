package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.namesrv;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Rows per second from writers through the in-process broker to the queues' inputs, and rows per message. Prints,
 * asserts nothing about speed; not part of the suite (the name does not end in Test): run it with
 * {@code mvn -o -q -pl runtime surefire:test -Dtest=ShuffleThroughputBenchmark}.
 */
@ExtendWith(RocketMqTestSupport.class)
class ShuffleThroughputBenchmark {

    private static final RowType TYPE = RowType.builder()
            .field("user_id", DataType.of(DataType.Kind.BIGINT))
            .field("amount", DataType.of(DataType.Kind.BIGINT))
            .field("city", DataType.string())
            .build();
    private static final int ROWS = 1_000_000;
    private static final int CHANNELS = 2;
    private static final int QUEUES = 4;
    private static final List<String> CITIES = List.of("Berlin", "Hangzhou", "Lisbon", "Nairobi", "Quito");

    @Test
    void millionSmallRows() throws Exception {
        ShuffleTopic topic;
        try (TopicProvisioner provisioner = new TopicProvisioner(namesrv())) {
            topic = provisioner.provision(ShuffleTopic.topicName(unique("bench"), "ex"), QUEUES);
        }
        List<String> channels = new ArrayList<>();
        for (int c = 0; c < CHANNELS; c++) {
            channels.add("src/broker-a/" + c);
        }
        ExecutorService upstream = Executors.newFixedThreadPool(CHANNELS);
        try (ShuffleSender sender = ShuffleSender.start(namesrv(), unique("bench"), "bench", ShuffleOptions.defaults());
             ShuffleDownstream down = new ShuffleDownstream(topic, TYPE, Set.copyOf(channels), false)) {
            while (!down.pollOnce()) {
                Thread.onSpinWait();
            }
            long start = System.nanoTime();
            List<Future<ShuffleWriter>> writers = new ArrayList<>();
            for (String channel : channels) {
                writers.add(upstream.submit(() -> write(topic, channel, sender, ROWS / CHANNELS)));
            }
            while (down.rowCount() < ROWS) {
                down.pollOnce();
            }
            long elapsed = System.nanoTime() - start;
            long messages = 0;
            for (Future<ShuffleWriter> w : writers) {
                messages += w.get().messagesSent();
            }
            assertEquals(ROWS, down.rowCount());
            System.out.printf("[shuffle-benchmark] %d rows (%d channels -> %d queues) in %d ms: %.0f rows/s, "
                            + "%d messages, %.0f rows/message%n", ROWS, CHANNELS, QUEUES, elapsed / 1_000_000,
                    ROWS / (elapsed / 1e9), messages, (double) ROWS / messages);
        } finally {
            upstream.shutdownNow();
        }
    }

    private static ShuffleWriter write(ShuffleTopic topic, String channel, ShuffleSender sender, int rows)
            throws Exception {
        long[] offset = {0};
        ShuffleWriter w = new ShuffleWriter(topic, channel, TYPE, new int[] {0}, 128, () -> offset[0], sender);
        Random random = new Random(channel.hashCode());
        for (int i = 0; i < rows; i++) {
            offset[0] = i;
            while (w.isCongested()) {
                Thread.onSpinWait();   // a task would stop and be woken by the availability listener
            }
            w.process(Row.insert((long) random.nextInt(100_000), (long) random.nextInt(10_000),
                    CITIES.get(random.nextInt(CITIES.size()))));
            if (i % 1000 == 0) {
                w.processWatermark(i);
            }
        }
        w.awaitAcknowledged(Duration.ofMinutes(1));
        return w;
    }
}
