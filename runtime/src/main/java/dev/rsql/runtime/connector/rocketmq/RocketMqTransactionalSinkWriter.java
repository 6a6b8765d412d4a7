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
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Writes the rows of one task of a transactional job as RocketMQ half messages (see {@link RocketMqRowMessages} for
 * what a row becomes and which queue it goes to), committed by {@link #commit} through {@link HalfMessageCommitter}.
 *
 * <p>A half is a message with properties {@code TRAN_MSG=true} and {@code PGROUP=<producer group>}, as {@code
 * DefaultMQProducerImpl.sendMessageInTransaction} sets them (the group is the task's, registered here while the writer
 * is open: {@link TaskProducerGroups}), plus the transaction id in {@value
 * RocketMqTransactionCheck#TRANSACTION_PROPERTY} for the broker's check. The broker stores it in its half topic,
 * invisible to consumers. Halves cannot be batched: the 5.3.3 broker stores a batch as plain messages unless the
 * batch is flagged, and rejects a flagged batch (MESSAGE_ILLEGAL). So each is sent alone, asynchronously, at most
 * {@code sink.transaction.max-in-flight} at a time (writes block beyond: backpressure); their order does not matter,
 * the commit orders them.
 *
 * <p>A send is retried only when the broker certainly did not store it (busy, flow control, not sent at all): a half
 * stored twice would be committed twice by the broker's check. Any other failure fails the writer; the job does not
 * commit that transaction and answers the checks of its halves ROLLBACK.
 */
final class RocketMqTransactionalSinkWriter implements SinkWriter {

    private static final Logger LOG = LoggerFactory.getLogger(RocketMqTransactionalSinkWriter.class);

    private final RocketMqSink sink;
    private final RocketMqRowMessages messages;
    private final SinkWriterContext context;
    private final String taskId;
    private final String producerGroup;   // the task's, named by its halves
    private final PendingSends pending;
    private final Map<String, HalfMessages> open = new HashMap<>();
    private HalfMessages current;     // the transaction of the last write
    private final CoalescedUpserts coalesced;   // null unless a key's changes are coalesced per checkpoint
    private String coalescedTransaction;
    private Committing committing;    // the last committed transaction while its ends are under way
    private boolean closed;

    RocketMqTransactionalSinkWriter(RocketMqSink sink, RowEncoder encoder, SinkWriterContext context) {
        this.sink = sink;
        this.messages = new RocketMqRowMessages(sink, encoder, context.taskIndex());
        this.context = context;
        this.taskId = context.taskId();
        this.pending = new PendingSends(sink.options.table, taskId, sink.options.topic, sink.flushTimeoutMillis);
        this.coalesced = sink.coalescesUpserts() ? new CoalescedUpserts(sink.rowType(), sink.primaryKey()) : null;
        this.producerGroup = sink.taskGroups().open(taskId);
    }

    @Override
    public void write(Row row) throws Exception {
        pending.throwIfFailed();
        String txId = context.transactionId();
        if (txId == null) {
            throw new IllegalStateException("table " + sink.options.table + " task " + taskId
                    + ": the job is transactional but gave the writer no transaction id");
        }
        if (coalesced == null) {
            send(row, txId);
            return;
        }
        if (!txId.equals(coalescedTransaction)) {
            sendCoalesced();
            coalescedTransaction = txId;
        }
        coalesced.add(row);
    }

    /** Sends the last change of each key written under {@link #coalescedTransaction}. */
    private void sendCoalesced() throws Exception {
        if (coalesced == null || coalesced.isEmpty()) {
            return;
        }
        for (Row r : coalesced.rows()) {
            send(r, coalescedTransaction);
        }
        coalesced.clear();
    }

    private void send(Row row, String txId) throws Exception {
        if (current == null || !current.transactionId.equals(txId)) {
            current = open.computeIfAbsent(txId, id -> new HalfMessages(id, producerGroup));
        }
        Message msg = messages.toMessage(row);
        MessageQueue queue = messages.queueFor(msg);
        MessageAccessor.putProperty(msg, MessageConst.PROPERTY_TRANSACTION_PREPARED, "true");
        MessageAccessor.putProperty(msg, MessageConst.PROPERTY_PRODUCER_GROUP, producerGroup);
        msg.putUserProperty(RocketMqTransactionCheck.TRANSACTION_PROPERTY, txId);
        HalfMessages.Half half = current.add(queue, msg.getKeys());
        pending.acquire(sink.maxInFlight);
        send(msg, queue, half, System.currentTimeMillis() + sink.retryTimeoutMillis, 0);
    }

    private void send(Message msg, MessageQueue queue, HalfMessages.Half half, long deadline, int attempt) {
        half.sentAtMillis = System.currentTimeMillis();
        SendCallback callback = new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                if (result.getSendStatus() != SendStatus.SEND_OK) {
                    LOG.warn("job={} table={} task={}: half message stored on {} with status {}", sink.options.job,
                            sink.options.table, taskId, queue, result.getSendStatus());
                }
                half.result = result;
                pending.acknowledged(1, null);
            }

            @Override
            public void onException(Throwable e) {
                failedOrRetried(msg, queue, half, deadline, attempt, e);
            }
        };
        try {
            sink.producer().send(msg, queue, callback, sink.sendTimeoutMillis);
        } catch (Exception e) {
            failedOrRetried(msg, queue, half, deadline, attempt, e);
        }
    }

    private void failedOrRetried(Message msg, MessageQueue queue, HalfMessages.Half half, long deadline, int attempt,
            Throwable e) {
        long backoff = RocketMqRetry.backoffMillis(attempt);
        if (!pending.failed() && RocketMqRetry.isTransientRejection(e)
                && System.currentTimeMillis() + backoff <= deadline) {
            if (attempt == 0) {
                LOG.warn("job={} table={} task={}: broker refused a half message for {} ({}); retrying",
                        sink.options.job, sink.options.table, taskId, queue, e.getMessage());
            }
            sink.retryTimer().schedule(() -> send(msg, queue, half, deadline, attempt + 1), backoff,
                    TimeUnit.MILLISECONDS);
            return;
        }
        if (!pending.failed()) {
            LOG.error("job={} table={} task={}: sending a half message to {} failed", sink.options.job,
                    sink.options.table, taskId, queue, e);
        }
        pending.acknowledged(1, e);
    }

    @Override
    public void flush() throws Exception {
        sendCoalesced();
        pending.awaitAll();
    }

    @Override
    public void commit(String transactionId) throws Exception {
        pending.throwIfFailed();
        HalfMessages tx = open.remove(transactionId);
        if (tx == null) {
            return;   // nothing written under it
        }
        if (tx == current) {
            current = null;
        }
        // One round at a time keeps each key's ends in write order across transactions.
        awaitCommitting();
        committing = new Committing(transactionId, tx.count(), sink.committer().start(tx));
    }

    /**
     * Waits for the ends of the last committed transaction. The task does not wait for them in {@link #commit}: its
     * checkpoint is decided (its commit record stored) before the ends are sent, and halves a crash leaves open are
     * committed by the broker's check, so the ends overlap the next checkpoint interval's rows instead of stalling
     * the task's thread for their round trips.
     */
    private void awaitCommitting() throws InterruptedException {
        Committing c = committing;
        if (c == null) {
            return;
        }
        committing = null;
        HalfMessageCommitter.Result r = c.round.await();
        if (r.leftToCheck() == 0) {
            LOG.debug("job={} table={} task={}: committed transaction {} ({} messages)", sink.options.job,
                    sink.options.table, taskId, c.transactionId, r.committed());
        } else {
            LOG.info("job={} table={} task={}: committed {} of {} messages of transaction {}; the broker's "
                    + "transaction check commits the rest ({})", sink.options.job, sink.options.table, taskId,
                    r.committed(), c.count, c.transactionId, r.firstProblem());
        }
    }

    /** A committed transaction whose ends are under way. */
    private record Committing(String transactionId, int count, HalfMessageCommitter.Round round) {
    }

    /**
     * Flushes; halves of transactions not committed are left to the broker's check, which the process the task runs
     * in next answers.
     */
    @Override
    public void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!pending.failed()) {
                flush();
            }
            awaitCommitting();
            if (!open.isEmpty()) {
                LOG.info("job={} table={} task={}: closing with transactions {} not committed; the broker's "
                        + "transaction check resolves their half messages", sink.options.job, sink.options.table,
                        taskId, open.keySet());
            }
        } finally {
            sink.taskGroups().close(taskId);
        }
    }
}
