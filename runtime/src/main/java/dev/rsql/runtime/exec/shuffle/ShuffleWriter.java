package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.exchange.KeyGroupSelector;
import dev.rsql.runtime.exec.exchange.StageOutput;
import dev.rsql.runtime.rocketmq.RocketMqRetry;
import dev.rsql.runtime.types.RowType;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The upstream end of a shuffle inside a task, one per channel (the task's input shard or shuffle queue): sends each
 * row to the shuffle queue that owns its key's key group ({@code keyGroup * queues / keyGroups}) with its sequence
 * {@code (position, n)} — the position of the input event being processed, and the number of rows this writer wrote
 * for that position before; a position of {@link ShuffleCodec#UNSEQUENCED} sends the row without one. Watermarks and
 * idle/active marks go to every queue.
 *
 * <p>Events are batched per queue into messages of up to {@code shuffle.batch.bytes}, sent when full or when their
 * first event waited {@code shuffle.batch.delay}. A queue has at most one message in flight, so its messages are
 * stored in order; a transient failure is retried (the message may then be stored twice: the receiver drops what it
 * applied already), a persistent one fails the writer. Nothing here blocks the task thread but
 * {@link #awaitAcknowledged}.
 *
 * <p>The {@link StageOutput} methods and {@link #awaitAcknowledged} belong to the task thread; sends
 * complete on the transport's threads, delayed batches and retries go out on the {@link ShuffleSender}'s timer.
 */
public final class ShuffleWriter implements StageOutput {

    private static final Logger LOG = LoggerFactory.getLogger(ShuffleWriter.class);

    private final ShuffleTopic topic;
    private final String channel;
    private final KeyGroupSelector keys;
    private final LongSupplier position;
    private final ShuffleSender sender;
    private final int batchBytes;
    private final long batchDelayNanos;
    private final long maxPendingBytes;
    private final Outbox[] outboxes;

    // Owned by the task thread.
    private long lastPosition = ShuffleCodec.UNSEQUENCED;
    private int n;
    private boolean idle;
    private long rows;

    private final AtomicBoolean lingerScheduled = new AtomicBoolean();
    private final AtomicLong pendingBytes = new AtomicLong();
    private final AtomicBoolean waitingForRoom = new AtomicBoolean();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicLong messages = new AtomicLong();
    private final Object acks = new Object();
    private long pendingMessages;                         // guarded by acks
    private volatile Runnable availabilityListener = () -> { };
    private volatile boolean closed;

    /**
     * @param channelId this writer's channel: {@code <table>/<broker>/<queue>} or {@code <exchange>/<queue>}
     * @param keyFields the fields of {@code rowType} whose key group decides the queue
     * @param keyGroups the job's number of key groups (max parallelism), at least the topic's queue count
     * @param position  the position of the input event being processed, or {@link ShuffleCodec#UNSEQUENCED}
     */
    public ShuffleWriter(ShuffleTopic topic, String channelId, RowType rowType, int[] keyFields, int keyGroups,
                         LongSupplier position, ShuffleSender sender) {
        if (topic.queueCount() > keyGroups) {
            throw new IllegalArgumentException("shuffle topic " + topic + " has more queues than the " + keyGroups
                    + " key groups");
        }
        this.topic = topic;
        this.channel = channelId;
        this.keys = new KeyGroupSelector(rowType, keyFields, keyGroups);
        this.position = position;
        this.sender = sender;
        ShuffleOptions options = sender.options();
        this.batchBytes = options.batchBytes();
        this.batchDelayNanos = options.batchDelay().toNanos();
        this.maxPendingBytes = options.maxPendingBytes();
        ShuffleCodec codec = new ShuffleCodec(rowType);
        this.outboxes = new Outbox[topic.queueCount()];
        for (int i = 0; i < outboxes.length; i++) {
            outboxes[i] = new Outbox(topic.queue(i), codec.encoder(channelId));
        }
    }

    /** Run (on a transport thread) when the writer, congested before, takes rows again, or when it failed. */
    public void setAvailabilityListener(Runnable listener) {
        this.availabilityListener = listener;
    }

    @Override
    public void process(Row row) throws Exception {
        throwIfFailed();
        long pos = position.getAsLong();
        if (pos != ShuffleCodec.UNSEQUENCED) {
            if (pos < lastPosition) {
                throw new IllegalStateException("channel " + channel + ": input position went back from "
                        + lastPosition + " to " + pos + " (a replay needs a new writer)");
            }
            n = pos == lastPosition ? n + 1 : 0;
            lastPosition = pos;
        }
        // Written out rather than through append(): no lambda per row on the hot path.
        Outbox out = outboxes[keys.partitionOf(row.fields(), outboxes.length)];
        boolean complete;
        boolean first;
        synchronized (out) {
            first = out.batch.isEmpty();
            out.batch.row(row.kind(), pos, pos == ShuffleCodec.UNSEQUENCED ? 0 : n, row.fields());
            complete = appended(out, first);
        }
        rows++;
        afterAppend(out, complete, first);
    }

    /** Records the channel's watermark for every queue; a newer one replaces one still waiting in a batch. */
    @Override
    public void processWatermark(long watermark) throws Exception {
        throwIfFailed();
        for (Outbox out : outboxes) {
            if (watermark <= out.watermark) {
                continue;   // nothing new for the receiver, which keeps the highest
            }
            out.watermark = watermark;
            append(out, batch -> batch.watermark(watermark));
        }
    }

    /** The channel has no data for now ({@code true}: receivers leave it out of their watermark) or again. */
    @Override
    public void markIdle(boolean idle) {
        throwIfFailedUnchecked();
        if (idle == this.idle) {
            return;
        }
        this.idle = idle;
        for (Outbox out : outboxes) {
            append(out, batch -> batch.idle(idle));
        }
    }

    /** Adds an event to a queue's batch; sends the batch if that completed it. */
    private void append(Outbox out, Consumer<ShuffleCodec.Encoder> event) {
        boolean complete;
        boolean first;
        synchronized (out) {
            first = out.batch.isEmpty();
            event.accept(out.batch);
            complete = appended(out, first);
        }
        afterAppend(out, complete, first);
    }

    /** Holding {@code out}'s lock after an event was appended: true when that completed (and queued) a batch. */
    private boolean appended(Outbox out, boolean first) {
        if (first) {
            out.firstEventNanos = System.nanoTime();
        }
        if (out.batch.bytes() >= batchBytes || out.batch.isFull()) {
            seal(out);
            return true;
        }
        return false;
    }

    /**
     * Holding {@code out}'s lock: takes its batch and queues it for sending, under that same lock so that batches of
     * a queue are sent in the order they were built, whichever thread (task or timer) sealed them. It counts as
     * pending at once so that {@link #awaitAcknowledged} waits for it.
     */
    private void seal(Outbox out) {
        byte[] batch = out.batch.finish();
        pendingBytes.addAndGet(batch.length);
        synchronized (acks) {
            pendingMessages++;
        }
        synchronized (out.ready) {
            out.ready.add(batch);
        }
    }

    private void afterAppend(Outbox out, boolean complete, boolean first) {
        if (complete) {
            send(out);
        } else if (first) {
            scheduleLinger(batchDelayNanos);
        }
    }

    /** A checkpoint may cover the input only once everything it produced is stored by the broker. */
    @Override
    public void barrier(long checkpointId) {
        try {
            awaitAcknowledged(sender.options().retryTimeout());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (TimeoutException e) {
            throw new UncheckedIOException(new IOException(e.getMessage(), e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("channel " + channel + ": interrupted waiting for acknowledgements", e);
        }
    }

    @Override
    public void endOfStream() {
        try {
            flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends every batch, however small (non-blocking). */
    @Override
    public void flush() throws IOException {
        throwIfFailed();
        for (Outbox out : outboxes) {
            synchronized (out) {
                if (!out.batch.isEmpty()) {
                    seal(out);
                }
            }
            send(out);
        }
    }

    /**
     * Sends every batch and waits until the broker acknowledged everything written so far: what a checkpoint needs
     * before it may cover the input that produced it.
     *
     * @throws IOException      a send failed for good (the writer is failed)
     * @throws TimeoutException not everything was acknowledged within {@code timeout} (the writer goes on)
     */
    public void awaitAcknowledged(Duration timeout) throws IOException, TimeoutException, InterruptedException {
        flush();
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (acks) {
            while (pendingMessages > 0 && failure.get() == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TimeoutException("channel " + channel + ": " + pendingMessages + " messages to "
                            + topic + " not acknowledged within " + timeout.toMillis() + " ms");
                }
                TimeUnit.NANOSECONDS.timedWait(acks, left);
            }
        }
        throwIfFailed();
    }

    /**
     * True while more than {@code shuffle.max-pending-bytes} are sent but not acknowledged: the task should stop
     * reading until the {@link #setAvailabilityListener availability listener} runs.
     */
    public boolean isCongested() {
        if (pendingBytes.get() <= maxPendingBytes) {
            return false;
        }
        waitingForRoom.set(true);
        // An acknowledgement between the check and the flag would not have woken the task: check again.
        if (pendingBytes.get() > maxPendingBytes / 2) {
            return true;
        }
        waitingForRoom.set(false);
        return false;
    }

    /** Messages acknowledged by the broker so far. */
    public long messagesSent() {
        return messages.get();
    }

    private void throwIfFailedUnchecked() {
        try {
            throwIfFailed();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void throwIfFailed() throws IOException {
        Throwable f = failure.get();
        if (f != null) {
            throw new IOException("channel " + channel + ": sending to shuffle topic " + topic + " failed: " + f, f);
        }
    }

    // ---- sending: task thread, timer and transport threads ----

    private void scheduleLinger(long delayNanos) {
        if (lingerScheduled.compareAndSet(false, true)) {
            try {
                sender.timer().schedule(this::linger, delayNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                fail(new IllegalStateException("the shuffle sender is closed", e));
            }
        }
    }

    /** Timer: sends the batches whose first event waited the batch delay; comes back for the others. */
    private void linger() {
        lingerScheduled.set(false);
        if (closed) {
            return;
        }
        long now = System.nanoTime();
        long next = Long.MAX_VALUE;
        for (Outbox out : outboxes) {
            boolean due = false;
            synchronized (out) {
                if (!out.batch.isEmpty()) {
                    long dueAt = out.firstEventNanos + batchDelayNanos;
                    if (dueAt - now <= 0) {
                        seal(out);
                        due = true;
                    } else {
                        next = Math.min(next, dueAt - now);
                    }
                }
            }
            if (due) {
                send(out);
            }
        }
        if (next != Long.MAX_VALUE) {
            scheduleLinger(next);
        }
    }

    /** Starts sending the queue's next batch unless one is in flight (its acknowledgement sends the next). */
    private void send(Outbox out) {
        byte[] next = null;
        synchronized (out.ready) {
            if (!out.inFlight && !out.ready.isEmpty()) {
                out.inFlight = true;
                next = out.ready.poll();
            }
        }
        if (next != null) {
            transmit(out, next, 0, System.nanoTime() + sender.options().retryTimeout().toNanos());
        }
    }

    /** Sends the head batch of a queue; its acknowledgement sends the next one. */
    private void transmit(Outbox out, byte[] batch, int attempt, long deadline) {
        if (failure.get() != null) {
            return;   // the writer is failed: nothing more goes out, order could not be kept
        }
        sender.transport().send(out.queue, batch, new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                if (result.getSendStatus() != SendStatus.SEND_OK) {
                    LOG.warn("topic={} channel={} queue={}: message of {} bytes stored with status {}",
                            topic.name(), channel, out.queue.getQueueId(), batch.length, result.getSendStatus());
                }
                acknowledged(out, batch);
            }

            @Override
            public void onException(Throwable e) {
                retry(out, batch, attempt, deadline, e);
            }
        });
    }

    private void retry(Outbox out, byte[] batch, int attempt, long deadline, Throwable e) {
        long backoff = TimeUnit.MILLISECONDS.toNanos(Math.min(2000L, 50L << Math.min(attempt, 6)));
        if (!RocketMqRetry.isTransient(e) || System.nanoTime() + backoff - deadline > 0) {
            LOG.error("topic={} channel={} queue={}: sending a message of {} bytes failed after {} attempts",
                    topic.name(), channel, out.queue.getQueueId(), batch.length, attempt + 1, e);
            fail(e);
            return;
        }
        if (attempt == 0) {
            LOG.warn("topic={} channel={} queue={}: sending a message of {} bytes failed ({}); retrying",
                    topic.name(), channel, out.queue.getQueueId(), batch.length, e.toString());
        }
        try {
            sender.timer().schedule(() -> transmit(out, batch, attempt + 1, deadline), backoff, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException rejected) {
            fail(e);
        }
    }

    private void acknowledged(Outbox out, byte[] batch) {
        messages.incrementAndGet();
        long pending = pendingBytes.addAndGet(-batch.length);
        synchronized (acks) {
            pendingMessages--;
            acks.notifyAll();
        }
        if (pending <= maxPendingBytes / 2 && waitingForRoom.compareAndSet(true, false)) {
            availabilityListener.run();
        }
        byte[] next;
        synchronized (out.ready) {
            next = out.ready.poll();
            if (next == null) {
                out.inFlight = false;
            }
        }
        if (next != null) {
            transmit(out, next, 0, System.nanoTime() + sender.options().retryTimeout().toNanos());
        }
    }

    private void fail(Throwable e) {
        if (failure.compareAndSet(null, e)) {
            synchronized (acks) {
                acks.notifyAll();
            }
            availabilityListener.run();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        LOG.info("topic={} channel={}: writer closed after {} rows in {} messages", topic.name(), channel, rows,
                messages.get());
    }

    /** The events for one shuffle queue: the batch being built, and built batches waiting to be sent in order. */
    private static final class Outbox {
        final MessageQueue queue;
        final ShuffleCodec.Encoder batch;         // guarded by this
        long firstEventNanos;                     // guarded by this
        long watermark = Long.MIN_VALUE;          // the last one appended; task thread
        final ArrayDeque<byte[]> ready = new ArrayDeque<>();   // guarded by itself
        boolean inFlight;                         // guarded by ready

        Outbox(MessageQueue queue, ShuffleCodec.Encoder batch) {
            this.queue = queue;
            this.batch = batch;
        }
    }
}
