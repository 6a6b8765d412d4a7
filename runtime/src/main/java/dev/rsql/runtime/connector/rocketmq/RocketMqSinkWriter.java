package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.rocketmq.RocketMqRetry;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes the rows of one task to a RocketMQ topic.
 *
 * <p>Each row becomes one message: the body is the table's format applied to the physical columns; the message key
 * comes from a metadata column {@code keys} or the columns of option {@code sink.key-columns} (their values joined
 * with {@code |}); the tag from a metadata column {@code tag}, option {@code sink.tag-column}, or option {@code tag};
 * a MAP metadata column {@code properties} and other writable metadata columns become user properties (attributes the
 * broker assigns, such as offsets and timestamps, are not written). A row with a key goes to queue {@code hash(key) mod queues}
 * (stable per key), a row without one to the next queue in round-robin order.
 *
 * <p>Messages are batched per target queue and sent asynchronously with at most one batch in flight per queue, so
 * messages of one queue (and thus of one key) are stored in the order they were written. A queue's batch is sent as
 * soon as its previous one is acknowledged (natural batching: small batches at low rates, batches of
 * {@code sink.batch-size} messages / {@code sink.batch-bytes} at high rates). {@link #flush()} returns only when every
 * message written so far is acknowledged, and throws the first send failure; a failure also surfaces on the next
 * {@link #write}. Writes block (backpressure) while more than {@code sink.max-pending-messages} are unacknowledged.
 */
final class RocketMqSinkWriter implements SinkWriter {

    private static final Logger LOG = LoggerFactory.getLogger(RocketMqSinkWriter.class);
    private static final int MESSAGE_OVERHEAD = 120;

    private final RocketMqSink sink;
    private final RowEncoder encoder;
    private final String taskId;
    private final String topic;
    private final boolean physicalOnly;
    private final Map<MessageQueue, Channel> channels = new HashMap<>();
    private final StringBuilder keyBuilder = new StringBuilder();
    private int roundRobin;

    private final Object lock = new Object();
    private long pending;                        // written but not acknowledged; guarded by lock
    private volatile Throwable failure;
    private volatile boolean closed;

    RocketMqSinkWriter(RocketMqSink sink, RowEncoder encoder, SinkWriterContext context) {
        this.sink = sink;
        this.encoder = encoder;
        this.taskId = context.taskId();
        this.topic = sink.options.topic;
        this.physicalOnly = sink.physicalPositions.length == sink.context.table().schema().columns().size();
        this.roundRobin = Math.floorMod(context.taskIndex(), 1 << 16);
    }

    @Override
    public void write(Row row) throws Exception {
        throwIfFailed();
        Message msg = toMessage(row);
        List<MessageQueue> queues = sink.queues();
        String key = msg.getKeys();
        MessageQueue target = key != null
                ? queues.get(Math.floorMod(key.hashCode(), queues.size()))
                : queues.get(Math.floorMod(roundRobin++, queues.size()));
        Channel ch = channels.computeIfAbsent(target, Channel::new);
        synchronized (lock) {
            while (pending >= sink.maxPending && failure == null) {
                awaitAcks(sink.flushTimeoutMillis, "more than " + sink.maxPending + " messages unacknowledged");
            }
            pending++;
        }
        ch.add(msg);
        if (ch.buildingCount >= sink.batchSize || ch.buildingBytes >= sink.batchBytes || !ch.inFlight.get()) {
            ch.seal();
            send(ch);
        }
    }

    private Message toMessage(Row row) {
        Object[] fields = row.fields();
        Row payload = row;
        if (!physicalOnly) {
            int[] pos = sink.physicalPositions;
            Object[] physical = new Object[pos.length];
            for (int i = 0; i < pos.length; i++) {
                physical[i] = fields[pos[i]];
            }
            payload = row.withFields(physical);
        }
        Message msg = new Message(topic, encoder.encode(payload));
        String key = key(fields);
        if (key != null && !key.isEmpty()) {
            msg.setKeys(key);
        }
        String tag = null;
        if (sink.tagMetadata >= 0) {
            tag = MessageMetadata.text(fields[sink.tagMetadata]);
        }
        if (tag == null && sink.tagColumn >= 0) {
            tag = MessageMetadata.text(fields[sink.tagColumn]);
        }
        if (tag == null) {
            tag = sink.constantTag;
        }
        if (tag != null && !tag.isEmpty()) {
            msg.setTags(tag);
        }
        if (sink.propertiesMap >= 0 && fields[sink.propertiesMap] instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) fields[sink.propertiesMap]).entrySet()) {
                if (e.getKey() != null && e.getValue() != null) {
                    msg.putUserProperty(e.getKey().toString(), MessageMetadata.text(e.getValue()));
                }
            }
        }
        for (int i = 0; i < sink.propertyColumns.length; i++) {
            String v = MessageMetadata.text(fields[sink.propertyColumns[i]]);
            if (v != null) {
                msg.putUserProperty(sink.propertyNames[i], v);
            }
        }
        return msg;
    }

    /** The message key: metadata column {@code keys}, else the sink.key-columns values joined with '|'. */
    private String key(Object[] fields) {
        if (sink.keyMetadata >= 0) {
            String k = MessageMetadata.text(fields[sink.keyMetadata]);
            if (k != null) {
                return k;
            }
        }
        if (sink.keyColumns.length == 0) {
            return null;
        }
        keyBuilder.setLength(0);
        boolean any = false;
        for (int i = 0; i < sink.keyColumns.length; i++) {
            if (i > 0) {
                keyBuilder.append('|');
            }
            Object v = fields[sink.keyColumns[i]];
            any |= v != null;
            keyBuilder.append(v == null ? "" : MessageMetadata.text(v));
        }
        return any ? keyBuilder.toString() : null;
    }

    @Override
    public void flush() throws Exception {
        for (Channel ch : channels.values()) {
            ch.seal();
            send(ch);
        }
        synchronized (lock) {
            while (pending > 0 && failure == null) {
                awaitAcks(sink.flushTimeoutMillis, pending + " messages still unacknowledged");
            }
        }
        throwIfFailed();
    }

    /** Waits (holding {@link #lock}) until an acknowledgement arrives; throws after the timeout without one. */
    private void awaitAcks(long timeoutMillis, String what) throws Exception {
        long before = pending;
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (pending == before && failure == null) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                TimeoutException e = new TimeoutException("table " + sink.options.table + " task " + taskId
                        + ": no acknowledgement from topic " + topic + " within " + timeoutMillis + " ms (" + what
                        + ")");
                fail(e);
                throw e;
            }
            lock.wait(left);
        }
    }

    private void throwIfFailed() throws Exception {
        Throwable f = failure;
        if (f != null) {
            if (f instanceof Exception) {
                throw new SendFailedException("table " + sink.options.table + ": writing to topic " + topic
                        + " failed: " + f.getMessage(), f);
            }
            throw new SendFailedException("table " + sink.options.table + ": writing to topic " + topic
                    + " failed: " + f, f);
        }
    }

    /** Sends the channel's next sealed batch unless one is in flight. Called by the task and by send callbacks. */
    private void send(Channel ch) {
        while (true) {
            if (!ch.inFlight.compareAndSet(false, true)) {
                return;
            }
            List<Message> batch = ch.ready.poll();
            if (batch == null) {
                ch.inFlight.set(false);
                if (ch.ready.isEmpty()) {
                    return;
                }
                continue;
            }
            if (failure != null) {
                acknowledged(ch, batch.size(), null);
                continue;
            }
            if (sendBatch(ch, batch, System.currentTimeMillis() + sink.retryTimeoutMillis, 0)) {
                return;
            }
        }
    }

    /**
     * Sends one batch; its callback sends the channel's next batch. A transient failure (broker busy, flow control,
     * timeout, connection lost) is retried with backoff until the retry deadline, keeping the batch at the head of
     * its queue so per-queue order holds. Returns false when the send could not even be started (already failed).
     */
    private boolean sendBatch(Channel ch, List<Message> batch, long deadline, int attempt) {
        SendCallback callback = new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                if (result.getSendStatus() != SendStatus.SEND_OK) {
                    LOG.warn("table={} task={}: batch of {} stored on {} with status {}", sink.options.table,
                            taskId, batch.size(), ch.queue, result.getSendStatus());
                }
                acknowledged(ch, batch.size(), null);
                send(ch);
            }

            @Override
            public void onException(Throwable e) {
                if (!retry(ch, batch, deadline, attempt, e)) {
                    acknowledged(ch, batch.size(), e);
                    send(ch);
                }
            }
        };
        try {
            if (batch.size() == 1) {
                sink.producer().send(batch.get(0), ch.queue, callback, sink.sendTimeoutMillis);
            } else {
                sink.producer().send(batch, ch.queue, callback, sink.sendTimeoutMillis);
            }
            return true;
        } catch (Exception e) {
            if (retry(ch, batch, deadline, attempt, e)) {
                return true;
            }
            acknowledged(ch, batch.size(), e);
            return false;
        }
    }

    private boolean retry(Channel ch, List<Message> batch, long deadline, int attempt, Throwable e) {
        long backoff = Math.min(2000L, 50L << Math.min(attempt, 6));
        if (failure != null || !RocketMqRetry.isTransient(e) || System.currentTimeMillis() + backoff > deadline) {
            return false;
        }
        if (attempt == 0) {
            LOG.warn("table={} task={}: sending {} messages to {} failed ({}); retrying", sink.options.table, taskId,
                    batch.size(), ch.queue, e.getMessage());
        }
        sink.retryTimer().schedule(() -> {
            if (!sendBatch(ch, batch, deadline, attempt + 1)) {
                send(ch);
            }
        }, backoff, TimeUnit.MILLISECONDS);
        return true;
    }

    private void acknowledged(Channel ch, int count, Throwable error) {
        if (error != null) {
            LOG.error("table={} task={}: sending {} messages to {} failed", sink.options.table, taskId, count,
                    ch.queue, error);
            fail(error);
        }
        synchronized (lock) {
            pending -= count;
            lock.notifyAll();
        }
        ch.inFlight.set(false);
    }

    private void fail(Throwable error) {
        synchronized (lock) {
            if (failure == null) {
                failure = error;
            }
            lock.notifyAll();
        }
    }

    @Override
    public void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        if (failure == null) {
            flush();
        }
    }

    /** The messages of one target queue: a batch being built by the task, sealed batches, at most one in flight. */
    private final class Channel {
        final MessageQueue queue;
        final ConcurrentLinkedQueue<List<Message>> ready = new ConcurrentLinkedQueue<>();
        final AtomicBoolean inFlight = new AtomicBoolean();
        List<Message> building = new ArrayList<>();
        int buildingCount;
        int buildingBytes;

        Channel(MessageQueue queue) {
            this.queue = queue;
        }

        void add(Message msg) {
            building.add(msg);
            buildingCount++;
            buildingBytes += msg.getBody().length + MESSAGE_OVERHEAD;
        }

        void seal() {
            if (buildingCount > 0) {
                ready.add(building);
                building = new ArrayList<>();
                buildingCount = 0;
                buildingBytes = 0;
            }
        }
    }

    /** Sending to RocketMQ failed; the engine does not commit source positions past it. */
    static final class SendFailedException extends Exception {
        SendFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
