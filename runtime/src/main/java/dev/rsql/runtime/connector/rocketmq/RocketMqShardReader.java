package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.connector.DecodedRows;
import dev.rsql.runtime.connector.ReaderOutput;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.rocketmq.QueueBackpressure;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads one message queue assigned to this process. The source's poller thread {@link #offer}s polled messages into a
 * bounded buffer ({@code scan.queue-buffer-size} messages / {@code scan.queue-buffer-bytes}); the task thread decodes
 * them in {@link #read}. When the buffer is full the queue is paused at the consumer at once and resumed once the task
 * has drained half of it, so a slow task holds back only its own queue. (Beyond the limit the buffer holds at most the
 * pulls already under way, and the client caches at most {@code pullThresholdForQueue} more messages.) Unlike a
 * shuffle task's small inbox, half a buffer here is work enough for most of the second the client takes to come back
 * to a resumed queue, and the tasks of a source's queues share workers; waiting for room instead cost a wake-up per
 * poll and measured slower.
 *
 * <p>The buffer keeps each message's offset and body ({@link PolledMessages}), and the whole message only when a
 * metadata column reads it.
 *
 * <p>{@link #position()} is the next queue offset to read; {@link #commit} stores it as the consumer group's offset
 * of the queue on the broker (synchronously), so a restart or a new owner of the queue resumes exactly there.
 */
final class RocketMqShardReader implements ShardReader {

    private final RocketMqSource source;
    private final MessageQueue queue;
    private final String shardId;
    private final String description;
    private final RowDecoder decoder;
    private final MessageMetadata.Reader[] metadata;
    private final int capacity;
    private final long capacityBytes;

    private final ConcurrentLinkedQueue<PolledMessages> buffer = new ConcurrentLinkedQueue<>();
    private final AtomicInteger buffered = new AtomicInteger();
    private final AtomicLong bufferedBytes = new AtomicLong();
    private final AtomicBoolean waiting = new AtomicBoolean();
    private final QueueBackpressure backpressure;
    private volatile Runnable availabilityListener;
    private volatile boolean revoked;
    private volatile boolean closed;

    // Written by the task thread; read by status readers.
    private volatile long nextOffset;
    private volatile long maxOffset = -1;
    private final DecodedRows decoded = new DecodedRows();
    private PolledMessages reading;   // the poll being read, taken from the buffer

    RocketMqShardReader(RocketMqSource source, MessageQueue queue, long startOffset, RowDecoder decoder,
                        MessageMetadata.Reader[] metadata, int capacity, long capacityBytes) {
        this.source = source;
        this.queue = queue;
        this.shardId = shardId(queue);
        this.description = "topic " + queue.getTopic() + ", queue " + queue.getQueueId() + " (broker "
                + queue.getBrokerName() + ")";
        this.nextOffset = startOffset;
        this.decoder = decoder;
        this.metadata = metadata;
        this.capacity = capacity;
        this.capacityBytes = capacityBytes;
        // Resumed at half, not when empty, so the task has work while the client comes back to the queue.
        this.backpressure = new QueueBackpressure(
                () -> !closed && !revoked && (buffered.get() >= capacity || bufferedBytes.get() >= capacityBytes),
                () -> buffered.get() <= capacity / 2 && bufferedBytes.get() <= capacityBytes / 2,
                () -> source.pause(queue),
                () -> {
                    if (!revoked && !closed) {
                        source.resume(queue);
                    }
                },
                Duration.ZERO);
    }

    static String shardId(MessageQueue queue) {
        return queue.getBrokerName() + "-" + queue.getQueueId();
    }

    MessageQueue queue() {
        return queue;
    }

    // ---- poller side ----

    /** Buffers messages polled for this queue; returns false once the reader is revoked or closed. */
    boolean offer(List<MessageExt> messages) {
        if (revoked || closed) {
            return false;
        }
        PolledMessages polled = new PolledMessages(messages, metadata.length > 0);
        buffer.add(polled);
        buffered.addAndGet(polled.count());
        bufferedBytes.addAndGet(polled.bytes());
        MessageExt last = messages.get(messages.size() - 1);
        String max = last.getProperty(MessageConst.PROPERTY_MAX_OFFSET);
        if (max != null) {
            try {
                maxOffset = Long.parseLong(max);
            } catch (NumberFormatException ignored) {
                // status only
            }
        }
        if (waiting.compareAndSet(true, false)) {
            Runnable l = availabilityListener;
            if (l != null) {
                l.run();
            }
        }
        backpressure.awaitRoom();
        return true;
    }

    /** The queue is being taken away: polled messages are no longer accepted. */
    void revoke() {
        revoked = true;
    }

    boolean isRevoked() {
        return revoked;
    }

    // ---- task side ----

    @Override
    public String shardId() {
        return shardId;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public int read(ReaderOutput output, int maxRecords) throws Exception {
        int n = 0;
        while (n < maxRecords) {
            PolledMessages batch = reading;
            if (batch == null || !batch.hasNext()) {
                batch = reading = buffer.poll();
                if (batch == null) {
                    waiting.set(true);
                    if (buffer.isEmpty()) {
                        break;
                    }
                    waiting.set(false);
                    continue;
                }
                buffered.addAndGet(-batch.count());
                bufferedBytes.addAndGet(-batch.bytes());
                backpressure.taken();
            }
            batch.advance();
            long offset = batch.offset();
            if (offset < nextOffset) {
                continue;   // before the start position or already handed out (a stale pull); never read twice
            }
            byte[] body = batch.body();
            decoded.clear();
            try {
                decoder.decodeChangelog(body, 0, body.length, decoded);
                if (metadata.length > 0) {
                    MessageExt msg = batch.message();
                    for (int i = 0; i < decoded.size(); i++) {
                        for (MessageMetadata.Reader m : metadata) {
                            m.read(msg, decoded.fields(i));
                        }
                    }
                }
            } catch (DecodeException e) {
                output.decodeError(offset, body, e);
                nextOffset = offset + 1;
                n++;
                continue;
            }
            decoded.emitTo(offset, output);
            nextOffset = offset + 1;
            n++;
        }
        return n;
    }

    @Override
    public boolean isEndOfInput() {
        return false;
    }

    @Override
    public void setAvailabilityListener(Runnable listener) {
        this.availabilityListener = listener;
    }

    @Override
    public String describePosition(long position) {
        return description + ", offset " + position;
    }

    @Override
    public long position() {
        return nextOffset;
    }

    @Override
    public void commit(long position) throws Exception {
        source.commit(this, position);
    }

    @Override
    public long lag() {
        long max = maxOffset;
        return max < 0 ? -1 : Math.max(0, max - nextOffset);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        buffer.clear();
        reading = null;
        buffered.set(0);
        bufferedBytes.set(0);
        source.readerClosed(this);
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public String toString() {
        return describePosition(nextOffset);
    }
}
