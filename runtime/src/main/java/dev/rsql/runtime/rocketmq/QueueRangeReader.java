package dev.rsql.runtime.rocketmq;

import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;

/**
 * Reads ranges of queues (state queues; a sink's queues, to find what it published) with synchronous pulls at exact
 * offsets: nothing is pulled in the background or buffered ahead, and every read starts where it is asked to. A lite-pull consumer does not fit: it pulls on its own
 * threads, and repositioning it (seek right after assign) interrupts those pulls, which closes the client's shared
 * broker connection. A tag filter is applied by the broker on its consume queue, so skipped messages are not read
 * from its commit log. Thread-safe.
 */
@SuppressWarnings("deprecation") // DefaultMQPullConsumer: the client's only synchronous pull-at-offset API
public final class QueueRangeReader implements AutoCloseable {

    @FunctionalInterface
    public interface MessageVisitor {
        void visit(MessageExt message) throws IOException;
    }

    /** Sees messages until it returns false. */
    @FunctionalInterface
    public interface MessageScanner {
        boolean visit(MessageExt message) throws IOException;
    }

    private static final int PULL_BATCH = 32;

    private final DefaultMQPullConsumer consumer;
    private final long pullTimeoutMillis;
    private final Duration retryTimeout;

    /**
     * A reader with a pull consumer of its own in {@code group} (it commits no offsets), as client instance
     * {@code instanceName}; {@code rpcHook} may be null. Each pull waits at most {@code requestTimeout}; transient
     * failures are retried for {@code retryTimeout}.
     */
    public QueueRangeReader(String namesrv, String group, String instanceName, RPCHook rpcHook,
                            Duration requestTimeout, Duration retryTimeout) throws IOException {
        DefaultMQPullConsumer c = new DefaultMQPullConsumer(group, rpcHook);
        c.setNamesrvAddr(namesrv);
        c.setInstanceName(instanceName);
        c.setEnableRebalance(false);
        try {
            c.start();
        } catch (MQClientException e) {
            throw new IOException("cannot start a queue reader (group " + group + ", name server " + namesrv
                    + "): " + e.getErrorMessage(), e);
        }
        this.consumer = c;
        this.pullTimeoutMillis = requestTimeout.toMillis();
        this.retryTimeout = retryTimeout;
    }

    public long minOffset(MessageQueue queue) throws IOException {
        return call(queue, "reading the first offset", () -> consumer.minOffset(queue));
    }

    public long maxOffset(MessageQueue queue) throws IOException {
        return call(queue, "reading the end offset", () -> consumer.maxOffset(queue));
    }

    /** Hands the messages tagged {@code tag} at offsets {@code [from, to)} to the visitor, in offset order. */
    public void read(MessageQueue queue, String tag, long from, long to, MessageVisitor visitor) throws IOException {
        scan(queue, tag, from, to, m -> {
            visitor.visit(m);
            return true;
        });
    }

    /**
     * Hands the messages tagged {@code tag} ({@code "*"}: all) at offsets {@code [from, to)} to the scanner, in
     * offset order, until it returns false.
     */
    public void scan(MessageQueue queue, String tag, long from, long to, MessageScanner scanner) throws IOException {
        long offset = from;
        while (offset < to) {
            long at = offset;
            PullResult result = call(queue, "reading offset " + at,
                    () -> consumer.pull(queue, tag, at, PULL_BATCH, pullTimeoutMillis));
            if (result.getPullStatus() == PullStatus.OFFSET_ILLEGAL) {
                throw new IOException("queue " + describe(queue) + " no longer holds offset " + at
                        + " (it holds " + result.getMinOffset() + " to " + result.getMaxOffset()
                        + "): the broker deleted messages that are still needed");
            }
            if (result.getPullStatus() == PullStatus.FOUND) {
                for (MessageExt m : result.getMsgFoundList()) {
                    if (m.getQueueOffset() >= to || !scanner.visit(m)) {
                        return;
                    }
                }
            }
            offset = result.getNextBeginOffset();
            if (offset <= at) {
                throw new IOException("queue " + describe(queue) + " ends at " + offset + ", before offset "
                        + to + " that it held earlier");
            }
        }
    }

    private <T> T call(MessageQueue queue, String what, RocketMqRetry.Call<T> call) throws IOException {
        try {
            return RocketMqRetry.call(call, retryTimeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(what + " of queue " + describe(queue) + " was interrupted");
        } catch (Exception e) {
            throw new IOException(what + " of queue " + describe(queue) + " failed: " + e.getMessage(), e);
        }
    }

    public static String describe(MessageQueue queue) {
        return queue.getTopic() + "/" + queue.getBrokerName() + "/" + queue.getQueueId();
    }

    @Override
    public void close() {
        consumer.shutdown();
    }
}
