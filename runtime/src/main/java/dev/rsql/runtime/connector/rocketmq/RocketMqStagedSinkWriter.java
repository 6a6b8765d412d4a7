package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.connector.SinkStage;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.rocketmq.QueueRangeReader;
import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Writes the rows of one task of a transactional job exactly once without RocketMQ transactions: the rows of a
 * checkpoint are held encoded in the heap, staged with the checkpoint ({@link SinkStage}: the task's state queue
 * holds them before its commit record), and published in batches once the checkpoint is recorded, through a
 * {@link RocketMqSinkWriter} that keeps each queue's messages in order. Each message carries its transaction and its
 * number in it (user properties {@code rsql_txn}, as half messages, and {@value #SEQUENCE_PROPERTY}). A writer holding more than
 * {@value #CHECKPOINT_REQUEST_BYTES} bytes asks its task for a checkpoint before the interval is up.
 *
 * <p>A crash while publishing leaves a prefix of each queue's messages of that checkpoint stored (a queue's next batch
 * is sent only once the broker stored the one before). The task that restores the checkpoint reads each queue from
 * an offset staged with the rows, below anything they could have been stored at, finds the messages stored already by
 * their property, and publishes the others before anything else. The writer that staged them may still be publishing
 * in a process that lives on (the task moved away): it starts no batch later than {@code
 * sink.transaction.publish-timeout} minus the send timeout after staging, so the restoring writer, when messages are
 * missing, waits until the checkpoint is that old (by the broker's clock) and looks again before publishing.
 *
 * <p>One publish at a time: a checkpoint's {@link #flush} waits for the previous one's rows, so that a restore has at
 * most the last checkpoint to finish, and a key's rows stay in order across checkpoints.
 */
final class RocketMqStagedSinkWriter implements SinkWriter, SinkStage.Participant {

    static final String SEQUENCE_PROPERTY = "rsql_seq";
    private static final Logger LOG = LoggerFactory.getLogger(RocketMqStagedSinkWriter.class);
    private static final byte CHUNK_FORMAT = 1;
    /** Rows are kept encoded in blocks of about this size, one stage message each. */
    private static final int BLOCK_BYTES = 1 << 20;
    /** Rows held beyond which the writer asks its task for an early checkpoint, to bound its memory. */
    static final long CHECKPOINT_REQUEST_BYTES = 32L << 20;
    /** Beyond the publish timeout: a send started just before it may take the send timeout and reach the broker late. */
    private static final long RECOVERY_GRACE_MILLIS = 1_000;
    /**
     * How much later than the checkpoint plus the publish timeout a recovery still looks for the checkpoint's rows in
     * a queue, by store times: room for the clocks of the brokers holding the state and the sink's topic to differ.
     */
    private static final long SCAN_MARGIN_MILLIS = 60_000;
    private static final long END_OFFSET_MAX_AGE_MILLIS = 60_000;

    private final RocketMqSink sink;
    private final RocketMqRowMessages messages;
    private final SinkWriterContext context;
    private final SinkStage stage;
    private final String taskId;
    private final RocketMqSinkWriter publisher;
    private final CoalescedUpserts coalesced;   // null unless a key's changes are coalesced per checkpoint
    /** Per queue, its end offset and when it was read: {offset, millis}. */
    private final Map<MessageQueue, long[]> endOffsets = new HashMap<>();

    // The open transaction's rows, encoded in write order: sealed blocks, then the one being filled.
    private String transaction;
    private int rowCount;
    private long heldBytes;
    private boolean checkpointRequested;
    private final Map<MessageQueue, Integer> queueIndex = new LinkedHashMap<>();
    private final List<byte[]> blocks = new ArrayList<>();
    private final ByteWriter block = new ByteWriter(64 << 10);
    // The chunks staged last, published once their checkpoint is recorded.
    private String stagedTransaction;
    private List<byte[]> staged = List.of();
    private long stagedAtNanos;
    private boolean closed;

    RocketMqStagedSinkWriter(RocketMqSink sink, RowEncoder encoder, SinkWriterContext context, SinkStage stage)
            throws Exception {
        this.sink = sink;
        this.messages = new RocketMqRowMessages(sink, encoder, context.taskIndex());
        this.context = context;
        this.stage = stage;
        this.taskId = context.taskId();
        this.publisher = new RocketMqSinkWriter(sink, encoder, context, true);
        this.coalesced = sink.coalescesUpserts() ? new CoalescedUpserts(sink.rowType(), sink.primaryKey()) : null;
        // Halves a run with sink.transaction.mode = 'half-messages' left open are checked through the task's group.
        sink.taskGroups().open(taskId);
        SinkStage.Recovered recovered = stage.join(this);
        if (recovered != null) {
            try {
                recover(recovered);
            } catch (Exception | Error e) {
                sink.taskGroups().close(taskId);
                throw e;
            }
        }
    }

    @Override
    public void write(Row row) throws Exception {
        publisher.throwIfFailed();
        String txId = context.transactionId();
        if (!txId.equals(transaction)) {
            if (rowCount > 0 || (coalesced != null && !coalesced.isEmpty())) {
                throw new IllegalStateException("table " + sink.options.table + " task " + taskId + ": rows of "
                        + transaction + " were not staged before " + txId + " began");
            }
            transaction = txId;
        }
        if (coalesced != null) {
            coalesced.add(row);
        } else {
            add(messages.toMessage(row));
        }
    }

    /** Appends a row: {@code [queue index][flag][properties][body]}, numbered in its transaction. */
    private void add(Message msg) {
        MessageQueue queue = messages.queueFor(msg);
        msg.putUserProperty(RocketMqTransactionCheck.TRANSACTION_PROPERTY, transaction);
        msg.putUserProperty(SEQUENCE_PROPERTY, Integer.toString(rowCount++));
        int start = block.position();
        block.writeVarInt(queueIndex.computeIfAbsent(queue, q -> queueIndex.size()));
        block.writeVarInt(msg.getFlag());
        block.writeLengthPrefixed(MessageDecoder.messageProperties2String(msg.getProperties())
                .getBytes(StandardCharsets.UTF_8));
        block.writeLengthPrefixed(msg.getBody());
        heldBytes += block.position() - start;
        if (block.position() >= BLOCK_BYTES) {
            blocks.add(block.toByteArray());
            block.reset();
        }
        if (heldBytes >= CHECKPOINT_REQUEST_BYTES && !checkpointRequested) {
            checkpointRequested = true;
            stage.requestCheckpoint();
        }
    }

    /** Waits until the last checkpoint's rows are stored: that publish must end before the next checkpoint. */
    @Override
    public void flush() throws Exception {
        if (coalesced != null) {
            for (Row r : coalesced.rows()) {
                add(messages.toMessage(r));
            }
            coalesced.clear();
        }
        publisher.flush();
    }

    /**
     * Chunks of the open transaction's rows, each a block behind the transaction's queues:
     * {@code [format][queues: varint]{[broker][queue id][floor]}} then rows to the end.
     */
    @Override
    public List<byte[]> stage(String transactionId) throws Exception {
        stagedAtNanos = System.nanoTime();
        stagedTransaction = transactionId;
        if (rowCount == 0) {
            staged = List.of();
            return staged;
        }
        if (!transactionId.equals(transaction)) {
            throw new IllegalStateException("table " + sink.options.table + " task " + taskId + ": staging "
                    + transactionId + " while holding rows of " + transaction);
        }
        if (block.position() > 0) {
            blocks.add(block.toByteArray());
            block.reset();
        }
        ByteWriter head = new ByteWriter(64);
        head.writeByte(CHUNK_FORMAT);
        head.writeVarInt(queueIndex.size());
        for (MessageQueue q : queueIndex.keySet()) {
            head.writeLengthPrefixed(q.getBrokerName().getBytes(StandardCharsets.UTF_8));
            head.writeVarInt(q.getQueueId());
            head.writeVarLong(floor(q));
        }
        byte[] header = head.toByteArray();
        List<byte[]> chunks = new ArrayList<>(blocks.size());
        for (byte[] b : blocks) {
            byte[] chunk = Arrays.copyOf(header, header.length + b.length);
            System.arraycopy(b, 0, chunk, header.length, b.length);
            chunks.add(chunk);
        }
        blocks.clear();
        queueIndex.clear();
        rowCount = 0;
        heldBytes = 0;
        checkpointRequested = false;
        staged = chunks;
        return chunks;
    }

    /**
     * An offset of {@code queue} that this writer's next messages there will be stored at or after: its last stored
     * batch there, or the queue's end, read at most {@value #END_OFFSET_MAX_AGE_MILLIS} ms ago, if later. A
     * recovery reads the queue from there, so it should not be far behind.
     */
    private long floor(MessageQueue queue) throws Exception {
        long now = System.currentTimeMillis();
        long[] end = endOffsets.get(queue);
        if (end == null || now - end[1] > END_OFFSET_MAX_AGE_MILLIS) {
            end = new long[] {sink.producer().maxOffset(queue), now};
            endOffsets.put(queue, end);
        }
        return Math.max(end[0], publisher.storedOffset(queue));
    }

    /** Publishes the rows staged for {@code transactionId}, whose checkpoint is recorded; returns before they are stored. */
    @Override
    public void commit(String transactionId) throws Exception {
        if (staged.isEmpty() || !transactionId.equals(stagedTransaction)) {
            return;
        }
        publisher.sendDeadline(stagedAtNanos + TimeUnit.MILLISECONDS.toNanos(sink.publishTimeoutMillis
                - sink.sendTimeoutMillis));
        for (byte[] chunk : staged) {
            decode(chunk, null, publisher::send);
        }
        publisher.sendAll();
        staged = List.of();
    }

    /** Publishes what the crash left unpublished of the rows staged with the restored checkpoint. */
    private void recover(SinkStage.Recovered recovered) throws Exception {
        long began = System.nanoTime();
        Map<MessageQueue, Long> lows = new LinkedHashMap<>();
        List<MessageQueue> queues = new ArrayList<>();
        List<Message> rows = new ArrayList<>();
        for (byte[] chunk : recovered.chunks()) {
            decode(chunk, lows, (m, q) -> {
                rows.add(m);
                queues.add(q);
            });
        }
        String tx = recovered.transactionId();
        Map<MessageQueue, Integer> perQueue = new HashMap<>();
        for (MessageQueue q : queues) {
            perQueue.merge(q, 1, Integer::sum);
        }
        long scanUntil = recovered.committedAtMillis() + sink.publishTimeoutMillis + SCAN_MARGIN_MILLIS;
        Set<Integer> stored = published(tx, lows, perQueue, scanUntil);
        if (stored.size() < rows.size()) {
            long wait = sink.publishTimeoutMillis + RECOVERY_GRACE_MILLIS - recovered.millisSinceCommit();
            if (wait > 0) {
                LOG.info("job={} table={} task={}: {} of {} rows of transaction {} are not published yet; waiting "
                        + "{} ms, until the writer that staged them cannot be publishing any more", sink.options.job,
                        sink.options.table, taskId, rows.size() - stored.size(), rows.size(),
                        recovered.transactionId(), wait);
                Thread.sleep(wait);
                stored = published(tx, lows, perQueue, scanUntil);
            }
        }
        publisher.sendDeadline(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(sink.publishTimeoutMillis
                - sink.sendTimeoutMillis));
        for (int i = 0; i < rows.size(); i++) {
            Message m = rows.get(i);
            if (!stored.contains(sequence(m, tx))) {
                publisher.send(m, queues.get(i));
            }
        }
        publisher.flush();
        LOG.info("job={} table={} task={}: transaction {} of the restored checkpoint: {} rows staged, {} were "
                        + "published before, {} published now ({} ms)", sink.options.job, sink.options.table, taskId,
                recovered.transactionId(), rows.size(), stored.size(), rows.size() - stored.size(),
                (System.nanoTime() - began) / 1_000_000);
    }

    /** What is done with each row of a chunk. */
    @FunctionalInterface
    private interface RowVisitor {
        void visit(Message message, MessageQueue queue) throws Exception;
    }

    /** Hands a chunk's rows to {@code visitor} in order; adds its queues' floors to {@code lows} unless null. */
    private void decode(byte[] chunk, Map<MessageQueue, Long> lows, RowVisitor visitor) throws Exception {
        ByteReader r = new ByteReader(chunk);
        int format = r.readByte();
        if (format != CHUNK_FORMAT) {
            throw new IllegalStateException("table " + sink.options.table + " task " + taskId + ": staged rows of "
                    + "format " + format + ", this engine reads " + CHUNK_FORMAT);
        }
        MessageQueue[] queues = new MessageQueue[r.readVarInt()];
        for (int i = 0; i < queues.length; i++) {
            String broker = new String(r.readLengthPrefixed(), StandardCharsets.UTF_8);
            queues[i] = new MessageQueue(sink.options.topic, broker, r.readVarInt());
            long floor = r.readVarLong();
            if (lows != null) {
                lows.merge(queues[i], floor, Math::min);
            }
        }
        while (!r.atEnd()) {
            MessageQueue q = queues[r.readVarInt()];
            int flag = r.readVarInt();
            String properties = new String(r.readLengthPrefixed(), StandardCharsets.UTF_8);
            Message m = new Message(sink.options.topic, r.readLengthPrefixed());
            m.setFlag(flag);
            MessageAccessor.setProperties(m, MessageDecoder.string2messageProperties(properties));
            visitor.visit(m, q);
        }
    }

    /**
     * The numbers of transaction {@code tx}'s messages stored in {@code lows}' queues from those offsets on. A queue is
     * read until its {@code expected} messages are found, its end, or a message stored after {@code untilMillis}.
     */
    private Set<Integer> published(String tx, Map<MessageQueue, Long> lows, Map<MessageQueue, Integer> expected,
                                   long untilMillis) throws Exception {
        QueueRangeReader reader = sink.publishedReader();
        Set<Integer> stored = new HashSet<>();
        for (Map.Entry<MessageQueue, Long> e : lows.entrySet()) {
            MessageQueue q = e.getKey();
            int[] left = {expected.getOrDefault(q, 0)};
            long from = Math.max(e.getValue(), reader.minOffset(q));
            reader.scan(q, "*", from, reader.maxOffset(q), m -> {
                int n = sequence(m, tx);
                if (n >= 0 && stored.add(n)) {
                    left[0]--;
                }
                return left[0] > 0 && m.getStoreTimestamp() <= untilMillis;
            });
        }
        return stored;
    }

    /** The number of a message of transaction {@code tx} in it, or -1 for any other message. */
    private static int sequence(Message m, String tx) {
        String n = m.getUserProperty(SEQUENCE_PROPERTY);
        if (n == null || !tx.equals(m.getUserProperty(RocketMqTransactionCheck.TRANSACTION_PROPERTY))) {
            return -1;
        }
        try {
            return Integer.parseInt(n);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Waits for the last publish; rows not staged yet belong to no recorded checkpoint and are dropped. */
    @Override
    public void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        try {
            publisher.close();
        } finally {
            sink.taskGroups().close(taskId);
        }
    }
}
