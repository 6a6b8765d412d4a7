package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.rsql.runtime.exec.shuffle.ShuffleTransportTest.KEYS;
import static dev.rsql.runtime.exec.shuffle.ShuffleTransportTest.KEY_GROUPS;
import static dev.rsql.runtime.exec.shuffle.ShuffleTransportTest.TYPE;
import static dev.rsql.runtime.exec.shuffle.ShuffleTransportTest.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The writer against a transport the test controls. */
class ShuffleWriterTest {

    private static final ShuffleTopic TOPIC = new ShuffleTopic("t", List.of(
            new MessageQueue("t", "broker-a", 0), new MessageQueue("t", "broker-a", 1)));

    /** Holds every send until the test completes it. */
    static final class HeldTransport implements ShuffleSender.Transport {
        final List<MessageQueue> queues = new ArrayList<>();
        final List<byte[]> bodies = new ArrayList<>();
        final List<SendCallback> callbacks = new ArrayList<>();
        final Map<MessageQueue, Integer> inFlight = new HashMap<>();
        int maxInFlightPerQueue;

        @Override
        public synchronized void send(MessageQueue queue, byte[] body, SendCallback callback) {
            queues.add(queue);
            bodies.add(body);
            callbacks.add(callback);
            int n = inFlight.merge(queue, 1, Integer::sum);
            maxInFlightPerQueue = Math.max(maxInFlightPerQueue, n);
        }

        /** Acknowledges the oldest send; false when none is held. */
        boolean acknowledgeOne() {
            SendCallback callback;
            synchronized (this) {
                if (callbacks.isEmpty()) {
                    return false;
                }
                callback = callbacks.remove(0);
                inFlight.merge(queues.remove(0), -1, Integer::sum);
                bodies.remove(0);
            }
            SendResult ok = new SendResult();
            ok.setSendStatus(SendStatus.SEND_OK);
            callback.onSuccess(ok);
            return true;
        }
    }

    private ShuffleSender sender;

    @AfterEach
    void closeSender() {
        if (sender != null) {
            sender.close();
        }
    }

    private ShuffleWriter writer(ShuffleSender.Transport transport, ShuffleOptions options, long[] position) {
        sender = new ShuffleSender(transport, options);
        return new ShuffleWriter(TOPIC, "a", TYPE, KEYS, KEY_GROUPS, () -> position[0], sender);
    }

    @Test
    void congestionStopsTheTaskUntilAcknowledgementsMakeRoom() throws Exception {
        HeldTransport transport = new HeldTransport();
        long[] position = {0};
        ShuffleWriter w = writer(transport, options("shuffle.batch.bytes", "1024",
                "shuffle.max-pending-bytes", "8192", "shuffle.batch.delay", "1 h"), position);
        AtomicInteger wakeups = new AtomicInteger();
        w.setAvailabilityListener(wakeups::incrementAndGet);
        int rows = 0;
        while (!w.isCongested()) {
            position[0]++;
            w.process(Row.insert((long) rows, "a", (long) rows));
            assertTrue(++rows < 10_000, "the writer never became congested");
        }
        assertEquals(2, transport.callbacks.size(), "one message in flight per queue, the rest waits");
        assertThrows(TimeoutException.class, () -> w.awaitAcknowledged(Duration.ofMillis(50)));
        assertEquals(0, wakeups.get());

        while (transport.acknowledgeOne()) {
            assertTrue(transport.maxInFlightPerQueue <= 1, "at most one message in flight per queue");
        }
        assertEquals(1, wakeups.get(), "the task is woken once there is room");
        assertFalse(w.isCongested());
        w.awaitAcknowledged(Duration.ofSeconds(10));
        assertTrue(w.messagesSent() > 8, "messages acknowledged: " + w.messagesSent());
    }

    @Test
    void aPersistentFailureFailsTheWriter() throws Exception {
        long[] position = {0};
        AtomicInteger sends = new AtomicInteger();
        ShuffleWriter w = writer((queue, body, callback) -> {
            sends.incrementAndGet();
            callback.onException(new MQBrokerException(ResponseCode.MESSAGE_ILLEGAL, "injected: message illegal"));
        }, ShuffleOptions.defaults(), position);
        AtomicInteger wakeups = new AtomicInteger();
        w.setAvailabilityListener(wakeups::incrementAndGet);
        w.process(Row.insert(1L, "a", 1L));
        IOException e = assertThrows(IOException.class, () -> w.awaitAcknowledged(Duration.ofSeconds(10)));
        assertTrue(e.getMessage().contains("message illegal"), e.getMessage());
        assertEquals(1, sends.get(), "not retried");
        assertEquals(1, wakeups.get(), "a congested task would learn of it");
        assertThrows(IOException.class, () -> w.process(Row.insert(2L, "a", 2L)));
    }

    @Test
    void sequencesCountRowsPerPositionAndPositionsMustNotGoBack() throws Exception {
        HeldTransport transport = new HeldTransport();
        long[] position = {5};
        ShuffleWriter w = writer(transport, options("shuffle.batch.delay", "1 h"), position);
        for (long key = 0; key < 6; key++) {
            w.process(new Row(RowKind.INSERT, new Object[] {key, "a", key}));
        }
        position[0] = ShuffleCodec.UNSEQUENCED;
        w.process(Row.insert(6L, "a", 6L));
        position[0] = 9;
        w.process(Row.insert(7L, "a", 7L));
        w.flush();
        List<long[]> sequences = new ArrayList<>();
        ShuffleCodec codec = new ShuffleCodec(TYPE);
        synchronized (transport) {
            for (byte[] body : transport.bodies) {
                codec.decode(body, new ShuffleCodec.Visitor() {
                    @Override
                    public void channel(String channel) {
                    }

                    @Override
                    public void row(int index, RowKind kind, long pos, int n, Object[] fields) {
                        sequences.add(new long[] {(Long) fields[2], pos, n});
                    }

                    @Override
                    public void watermark(int index, long watermark) {
                    }

                    @Override
                    public void idle(int index, boolean idle) {
                    }
                });
            }
        }
        sequences.sort((x, y) -> Long.compare(x[0], y[0]));
        List<String> seen = new ArrayList<>();
        for (long[] s : sequences) {
            seen.add(s[0] + "@" + s[1] + "/" + (s[1] == ShuffleCodec.UNSEQUENCED ? "-" : Long.toString(s[2])));
        }
        assertEquals(List.of("0@5/0", "1@5/1", "2@5/2", "3@5/3", "4@5/4", "5@5/5", "6@-1/-", "7@9/0"), seen);

        position[0] = 8;
        assertThrows(IllegalStateException.class, () -> w.process(Row.insert(8L, "a", 8L)));
    }
}
