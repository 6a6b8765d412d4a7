package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.exchange.KeyGroupSelector;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.broker;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.namesrv;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.storedCount;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Writers sending through the broker to the inputs of the shuffle queues. */
@ExtendWith(RocketMqTestSupport.class)
class ShuffleTransportTest {

    static final RowType TYPE = RowType.builder()
            .field("key", DataType.of(DataType.Kind.BIGINT))
            .field("channel", DataType.string())
            .field("seq", DataType.of(DataType.Kind.BIGINT))
            .build();
    static final int[] KEYS = {0};
    static final int KEY_GROUPS = 128;
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static TopicProvisioner provisioner;

    @BeforeAll
    static void startProvisioner() throws Exception {
        provisioner = new TopicProvisioner(namesrv());
    }

    @AfterAll
    static void stopProvisioner() {
        provisioner.close();
    }

    static ShuffleTopic topic(int queues) throws Exception {
        return provisioner.provision(ShuffleTopic.topicName(unique("job"), "ex"), queues);
    }

    static ShuffleOptions options(String... settings) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < settings.length; i += 2) {
            values.put(settings[i], settings[i + 1]);
        }
        return ShuffleOptions.from(new Options(values));
    }

    static ShuffleSender sender(ShuffleOptions options) throws Exception {
        return ShuffleSender.start(namesrv(), unique("job"), "test", options);
    }

    /** A writer whose input position the test sets. */
    static final class Channel {
        final String id;
        final ShuffleWriter writer;
        long position;
        long seq;

        Channel(String id, ShuffleTopic topic, ShuffleSender sender) {
            this.id = id;
            this.writer = new ShuffleWriter(topic, id, TYPE, KEYS, KEY_GROUPS, () -> position, sender);
        }

        void write(long key) throws Exception {
            writer.process(Row.insert(key, id, seq++));
        }
    }

    /** Reads until the condition holds. */
    static void drain(ShuffleDownstream down, String what, BooleanSupplier condition) {
        Await.until(what, TIMEOUT, () -> {
            try {
                return down.pollOnce() && condition.getAsBoolean();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Messages stored in the topic, once the broker indexed all it acknowledged (queue offsets lag a little). */
    static long stored(ShuffleTopic topic) {
        Await.until("the broker to index what it stored", TIMEOUT,
                () -> broker().brokerController().getMessageStore().dispatchBehindBytes() == 0);
        return storedCount(topic.name());
    }

    /** Reads every message stored in the topic now. */
    static void drainAll(ShuffleDownstream down, ShuffleTopic topic) {
        long stored = stored(topic);
        drain(down, "all " + stored + " messages of " + topic, () -> down.messages() == stored);
    }

    static List<Long> seqs(List<Row> rows) {
        List<Long> seqs = new ArrayList<>();
        for (Row r : rows) {
            seqs.add((Long) r.get(2));
        }
        return seqs;
    }

    static List<Long> range(long from, long to) {
        List<Long> r = new ArrayList<>();
        for (long i = from; i < to; i++) {
            r.add(i);
        }
        return r;
    }

    @Test
    void everyRowArrivesOnceAndInOrderPerChannel() throws Exception {
        ShuffleTopic topic = topic(2);
        List<String> ids = List.of("src/broker-a/0", "src/broker-a/1", "src/broker-a/2");
        try (ShuffleSender sender = sender(options("shuffle.batch.bytes", "4096"));
             ShuffleDownstream down = new ShuffleDownstream(topic, TYPE, Set.copyOf(ids))) {
            List<Channel> channels = new ArrayList<>();
            for (String id : ids) {
                channels.add(new Channel(id, topic, sender));
            }
            Random random = new Random(7);
            int rows = 30_000;
            for (int i = 0; i < rows; i++) {
                Channel c = channels.get(random.nextInt(channels.size()));
                // an input event produces one, two or three rows
                if (random.nextInt(3) > 0) {
                    c.position++;
                }
                c.write(random.nextInt(1000));
            }
            for (Channel c : channels) {
                c.writer.awaitAcknowledged(TIMEOUT);
            }
            drainAll(down, topic);

            assertEquals(rows, down.rowCount());
            Map<String, List<Row>> byChannel = down.rowsByChannel(1);
            for (Channel c : channels) {
                List<Long> seqs = seqs(byChannel.get(c.id));
                seqs.sort(null);
                assertEquals(range(0, c.seq), seqs, "channel " + c.id + " delivers every row once");
            }
            KeyGroupSelector keys = new KeyGroupSelector(TYPE, KEYS, KEY_GROUPS);
            for (int q = 0; q < topic.queueCount(); q++) {
                Map<String, Long> last = new LinkedHashMap<>();
                for (Row r : down.queue(q).rows) {
                    assertEquals(q, keys.partitionOf(r.fields(), topic.queueCount()), "row " + r + " in queue " + q);
                    Long before = last.put((String) r.get(1), (Long) r.get(2));
                    assertTrue(before == null || before < (Long) r.get(2), "channel order in queue " + q + " at " + r);
                }
            }
        }
    }

    @Test
    void replayingAChannelFromAnEarlierPositionDeliversNothingTwice() throws Exception {
        ShuffleTopic topic = topic(2);
        try (ShuffleSender sender = sender(ShuffleOptions.defaults());
             ShuffleDownstream down = new ShuffleDownstream(topic, TYPE, Set.of("a"))) {
            Channel first = new Channel("a", topic, sender);
            for (int i = 0; i < 1000; i++) {
                first.position = i;
                first.write(i % 97);
            }
            first.writer.awaitAcknowledged(TIMEOUT);
            // The upstream task restarts from its checkpoint at position 500 and produces the same rows again.
            Channel replay = new Channel("a", topic, sender);
            replay.seq = 500;
            for (int i = 500; i < 1500; i++) {
                replay.position = i;
                replay.write(i % 97);
            }
            replay.writer.awaitAcknowledged(TIMEOUT);
            drainAll(down, topic);

            List<Long> seqs = seqs(down.rowsByChannel(1).get("a"));
            seqs.sort(null);
            assertEquals(range(0, 1500), seqs);
            assertEquals(500, down.duplicatesDropped());
        }
    }

    @Test
    void theWatermarkIsTheMinimumOverExpectedChannelsInEveryQueue() throws Exception {
        ShuffleTopic topic = topic(2);
        try (ShuffleSender sender = sender(ShuffleOptions.defaults());
             ShuffleDownstream down = new ShuffleDownstream(topic, TYPE, Set.of("a", "b", "c"))) {
            Channel a = new Channel("a", topic, sender);
            Channel b = new Channel("b", topic, sender);
            Channel c = new Channel("c", topic, sender);
            a.writer.processWatermark(100);
            b.writer.processWatermark(200);
            a.writer.awaitAcknowledged(TIMEOUT);
            b.writer.awaitAcknowledged(TIMEOUT);
            drainAll(down, topic);
            for (int q = 0; q < 2; q++) {
                Map<String, ChannelTable.Entry> seen = down.queue(q).input.snapshot().channels();
                assertEquals(100, seen.get("a").watermark());
                assertEquals(200, seen.get("b").watermark());
                assertEquals(Long.MIN_VALUE, down.queue(q).input.watermark(), "c was never heard of in queue " + q);
            }

            c.writer.markIdle(true);
            c.writer.awaitAcknowledged(TIMEOUT);
            drainAll(down, topic);
            assertEquals(100, down.queue(0).input.watermark(), "c idle: left out");
            assertEquals(100, down.queue(1).input.watermark());

            a.writer.processWatermark(300);
            b.writer.processWatermark(250);
            a.writer.awaitAcknowledged(TIMEOUT);
            b.writer.awaitAcknowledged(TIMEOUT);
            drainAll(down, topic);
            assertEquals(250, down.queue(0).input.watermark());
            assertEquals(250, down.queue(1).input.watermark());
        }
    }

    @Test
    void batchesPackManyRowsIntoAMessage() throws Exception {
        ShuffleTopic topic = topic(2);
        // No delay: batches go out when full or flushed only.
        try (ShuffleSender sender = sender(options("shuffle.batch.delay", "1 h"))) {
            Channel c = new Channel("a", topic, sender);
            Random random = new Random(3);
            int rows = 20_000;
            for (int i = 0; i < rows; i++) {
                c.position = i;
                c.write(random.nextInt(10_000));
            }
            c.writer.awaitAcknowledged(TIMEOUT);
            long messages = stored(topic);
            assertEquals(messages, c.writer.messagesSent());
            assertTrue(messages > 2, "full batches were sent before the flush: " + messages);
            assertTrue(messages * 100 <= rows, rows + " rows in " + messages + " messages");
        }
    }

    @Test
    void aBatchGoesOutWhenItsDelayIsUp() throws Exception {
        ShuffleTopic topic = topic(2);
        try (ShuffleSender sender = sender(options("shuffle.batch.delay", "20 ms"));
             ShuffleDownstream down = new ShuffleDownstream(topic, TYPE, Set.of("a"))) {
            Channel c = new Channel("a", topic, sender);
            for (int i = 0; i < 3; i++) {
                c.position = i;
                c.write(i);
            }
            drain(down, "3 rows without a flush", () -> down.rowCount() == 3);
        }
    }

    @Test
    void orderHoldsWhenSendsFailTransiently() throws Exception {
        ShuffleTopic topic = topic(2);
        MessageQueue failing = topic.queue(0);
        AtomicInteger attempts = new AtomicInteger();
        ShuffleOptions options = options("shuffle.batch.bytes", "1024");
        try (ShuffleSender real = sender(options);
             ShuffleSender flaky = new ShuffleSender((queue, body, callback) -> {
                 int attempt = queue.equals(failing) ? attempts.incrementAndGet() : 0;
                 MQBrokerException busy = new MQBrokerException(ResponseCode.SYSTEM_BUSY, "injected: broker busy");
                 if (attempt == 1 || attempt == 3) {
                     callback.onException(busy);
                 } else if (attempt == 2) {
                     // Stored, but the acknowledgement is lost: the retry stores it a second time.
                     real.transport().send(queue, body, new SendCallback() {
                         @Override
                         public void onSuccess(SendResult result) {
                             callback.onException(busy);
                         }

                         @Override
                         public void onException(Throwable e) {
                             callback.onException(e);
                         }
                     });
                 } else {
                     real.transport().send(queue, body, callback);
                 }
             }, options);
             ShuffleDownstream down = new ShuffleDownstream(topic, TYPE, Set.of("a", "b"))) {
            List<Channel> channels = List.of(new Channel("a", topic, flaky), new Channel("b", topic, flaky));
            Random random = new Random(11);
            for (int i = 0; i < 4000; i++) {
                Channel c = channels.get(i % 2);
                c.position++;
                c.write(random.nextInt(500));
            }
            for (Channel c : channels) {
                c.writer.awaitAcknowledged(TIMEOUT);
            }
            drainAll(down, topic);

            assertTrue(attempts.get() > 3, "queue 0 got past its failures");
            assertTrue(down.queue(0).input.duplicatesDropped() > 0, "the message stored twice was dropped");
            assertEquals(4000, down.rowCount());
            for (int q = 0; q < 2; q++) {
                Map<String, List<Long>> byChannel = new LinkedHashMap<>();
                for (Row r : down.queue(q).rows) {
                    byChannel.computeIfAbsent((String) r.get(1), k -> new ArrayList<>()).add((Long) r.get(2));
                }
                for (Map.Entry<String, List<Long>> e : byChannel.entrySet()) {
                    List<Long> sorted = new ArrayList<>(e.getValue());
                    sorted.sort(null);
                    assertEquals(sorted, e.getValue(), "channel " + e.getKey() + " in queue " + q + " keeps its order");
                }
            }
        }
    }
}
