package dev.rsql.runtime.state.changelog;

import dev.rsql.runtime.rocketmq.RocketMqRetry;
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
 * Reads ranges of state queues with synchronous pulls at exact offsets: nothing is pulled in the background or
 * buffered ahead, and every read starts where it is asked to. A lite-pull consumer does not fit: it pulls on its own
 * threads, and repositioning it (seek right after assign) interrupts those pulls, which closes the client's shared
 * broker connection. A tag filter is applied by the broker on its consume queue, so skipped messages are not read
 * from its commit log. Thread-safe.
 */
@SuppressWarnings("deprecation") // DefaultMQPullConsumer: the client's only synchronous pull-at-offset API
final class StateQueueReader implements AutoCloseable {

    @FunctionalInterface
    interface MessageVisitor {
        void visit(MessageExt message) throws IOException;
    }

    private static final int PULL_BATCH = 32;

    private final DefaultMQPullConsumer consumer;
    private final long pullTimeoutMillis;
    private final Duration retryTimeout;

    StateQueueReader(String namesrv, String group, String instanceName, RPCHook rpcHook, ChangelogSettings settings)
            throws IOException {
        DefaultMQPullConsumer c = new DefaultMQPullConsumer(group, rpcHook);
        c.setNamesrvAddr(namesrv);
        c.setInstanceName(instanceName);
        c.setEnableRebalance(false);
        try {
            c.start();
        } catch (MQClientException e) {
            throw new IOException("cannot start the state queue reader (group " + group + ", name server " + namesrv
                    + "): " + e.getErrorMessage(), e);
        }
        this.consumer = c;
        this.pullTimeoutMillis = settings.requestTimeout().toMillis();
        this.retryTimeout = settings.retryTimeout();
    }

    long minOffset(MessageQueue queue) throws IOException {
        return call(queue, "reading the first offset", () -> consumer.minOffset(queue));
    }

    long maxOffset(MessageQueue queue) throws IOException {
        return call(queue, "reading the end offset", () -> consumer.maxOffset(queue));
    }

    /** Hands the messages tagged {@code tag} at offsets {@code [from, to)} to the visitor, in offset order. */
    void read(MessageQueue queue, String tag, long from, long to, MessageVisitor visitor) throws IOException {
        long offset = from;
        while (offset < to) {
            long at = offset;
            PullResult result = call(queue, "reading offset " + at,
                    () -> consumer.pull(queue, tag, at, PULL_BATCH, pullTimeoutMillis));
            if (result.getPullStatus() == PullStatus.OFFSET_ILLEGAL) {
                throw new IOException("state queue " + describe(queue) + " no longer holds offset " + at
                        + " (it holds " + result.getMinOffset() + " to " + result.getMaxOffset()
                        + "): the broker deleted state that is still needed");
            }
            if (result.getPullStatus() == PullStatus.FOUND) {
                for (MessageExt m : result.getMsgFoundList()) {
                    if (m.getQueueOffset() >= to) {
                        return;
                    }
                    visitor.visit(m);
                }
            }
            offset = result.getNextBeginOffset();
            if (offset <= at) {
                throw new IOException("state queue " + describe(queue) + " ends at " + offset + ", before offset "
                        + to + " that it held earlier");
            }
        }
    }

    private <T> T call(MessageQueue queue, String what, RocketMqRetry.Call<T> call) throws IOException {
        try {
            return RocketMqRetry.call(call, retryTimeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(what + " of state queue " + describe(queue) + " was interrupted");
        } catch (Exception e) {
            throw new IOException(what + " of state queue " + describe(queue) + " failed: " + e.getMessage(), e);
        }
    }

    static String describe(MessageQueue queue) {
        return queue.getTopic() + "/" + queue.getBrokerName() + "/" + queue.getQueueId();
    }

    @Override
    public void close() {
        consumer.shutdown();
    }
}
