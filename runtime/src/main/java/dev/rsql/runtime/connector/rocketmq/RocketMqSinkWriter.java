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
 * Writes the rows of one task of a non-transactional job to a RocketMQ topic (see {@link RocketMqRowMessages} for
 * what a row becomes and which queue it goes to).
 *
 * <p>Messages are batched per target queue and sent asynchronously with at most one batch in flight per queue, so
 * messages of one queue (and thus of one key) are stored in the order they were written. A queue's batch is sent as
 * soon as its previous one is acknowledged (natural batching: small batches at low rates, batches of
 * {@code sink.batch-size} messages / {@code sink.batch-bytes} at high rates). {@link #flush()} returns only when every
 * message written so far is acknowledged, and throws the first send failure; a failure also surfaces on the next
 * {@link #write}. Writes block (backpressure) while more than {@code sink.max-pending-messages} are unacknowledged.
 *
 * <p>A staging writer publishes through one of these ({@link RocketMqStagedSinkWriter}) with {@code exactlyOnce}:
 * then a batch is retried only when the broker certainly did not store it, no batch starts after the deadline the
 * staging writer sets, and the offset of each queue's last stored batch is kept.
 */
final class RocketMqSinkWriter implements SinkWriter {

    private static final Logger LOG = LoggerFactory.getLogger(RocketMqSinkWriter.class);
    private static final int MESSAGE_OVERHEAD = 120;

    private final RocketMqSink sink;
    private final RocketMqRowMessages messages;
    private final String taskId;
    private final PendingSends pending;
    private final Map<MessageQueue, Channel> channels = new HashMap<>();
    private final boolean exactlyOnce;
    private volatile long sendDeadlineNanos;   // exactlyOnce: no batch starts after it
    private boolean closed;

    RocketMqSinkWriter(RocketMqSink sink, RowEncoder encoder, SinkWriterContext context, boolean exactlyOnce) {
        this.sink = sink;
        this.messages = new RocketMqRowMessages(sink, encoder, context.taskIndex());
        this.taskId = context.taskId();
        this.pending = new PendingSends(sink.options.table, taskId, sink.options.topic, sink.flushTimeoutMillis);
        this.exactlyOnce = exactlyOnce;
    }

    @Override
    public void write(Row row) throws Exception {
        Message msg = messages.toMessage(row);
        send(msg, messages.queueFor(msg));
    }

    /** Queues a message for {@code queue}, sending the queue's batch when full or when none is in flight. */
    void send(Message msg, MessageQueue queue) throws Exception {
        pending.throwIfFailed();
        Channel ch = channels.computeIfAbsent(queue, Channel::new);
        pending.acquire(sink.maxPending);
        ch.add(msg);
        if (ch.buildingCount >= sink.batchSize || ch.buildingBytes >= sink.batchBytes || !ch.inFlight.get()) {
            ch.seal();
            send(ch);
        }
    }

    @Override
    public void flush() throws Exception {
        sendAll();
        pending.awaitAll();
    }

    /** Sends every queued message without waiting for the broker. */
    void sendAll() {
        for (Channel ch : channels.values()) {
            ch.seal();
            send(ch);
        }
    }

    /** Batches that have not started by then fail the writer ({@code exactlyOnce} only). */
    void sendDeadline(long nanoTime) {
        sendDeadlineNanos = nanoTime;
    }

    /** The queue offset of the last batch stored on {@code queue} (its first message), or -1 if none. */
    long storedOffset(MessageQueue queue) {
        Channel ch = channels.get(queue);
        return ch == null ? -1 : ch.storedOffset;
    }

    void throwIfFailed() throws Exception {
        pending.throwIfFailed();
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
            if (pending.failed()) {
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
                ch.storedOffset = result.getQueueOffset();
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
        if (exactlyOnce && System.nanoTime() - sendDeadlineNanos > 0) {
            acknowledged(ch, batch.size(), new TimeoutException("table " + sink.options.table + " task " + taskId
                    + ": publishing a checkpoint's rows took longer than sink.transaction.publish-timeout ("
                    + sink.publishTimeoutMillis + " ms)"));
            return false;
        }
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
        long backoff = RocketMqRetry.backoffMillis(attempt);
        boolean retriable = exactlyOnce ? RocketMqRetry.isTransientRejection(e) : RocketMqRetry.isTransient(e);
        if (pending.failed() || !retriable || System.currentTimeMillis() + backoff > deadline) {
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
        }
        pending.acknowledged(count, error);
        ch.inFlight.set(false);
    }

    @Override
    public void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        if (!pending.failed()) {
            flush();
        }
    }

    /** The messages of one target queue: a batch being built by the task, sealed batches, at most one in flight. */
    private static final class Channel {
        final MessageQueue queue;
        final ConcurrentLinkedQueue<List<Message>> ready = new ConcurrentLinkedQueue<>();
        final AtomicBoolean inFlight = new AtomicBoolean();
        volatile long storedOffset = -1;
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
}
