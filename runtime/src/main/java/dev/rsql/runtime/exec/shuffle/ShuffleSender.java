package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.rocketmq.RocketMqNames;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The sending side of a job's shuffles in one process, shared by all its {@link ShuffleWriter}s: the transport to
 * the broker (one producer), a timer thread that sends batches whose delay is up and retries failed sends, and the
 * options. Thread-safe.
 */
public final class ShuffleSender implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ShuffleSender.class);

    /** Sends one message to one queue asynchronously. */
    @FunctionalInterface
    public interface Transport {
        /** Calls {@code callback} exactly once, on any thread, possibly before returning. */
        void send(MessageQueue queue, byte[] body, SendCallback callback);
    }

    private final Transport transport;
    private final ShuffleOptions options;
    private final ScheduledExecutorService timer;
    private final Runnable onClose;

    /** A sender over {@code transport} (tests wrap the transport of a started sender). */
    public ShuffleSender(Transport transport, ShuffleOptions options) {
        this(transport, options, "rsql-shuffle-sender", () -> { });
    }

    private ShuffleSender(Transport transport, ShuffleOptions options, String threadName, Runnable onClose) {
        this.transport = transport;
        this.options = options;
        this.onClose = onClose;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts a producer for the shuffles of {@code job} in the process {@code instanceId}. */
    public static ShuffleSender start(String namesrv, String job, String instanceId, ShuffleOptions options)
            throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer(
                RocketMqNames.distinct("rsql_" + job + "_shuffle", RocketMqNames.MAX_GROUP_LENGTH));
        producer.setNamesrvAddr(namesrv);
        // One client per process and job: producers of one JVM with the same instance name share a client.
        producer.setInstanceName(RocketMqNames.sanitize("rsql@" + instanceId + "@" + job + "@shuffle",
                RocketMqNames.MAX_GROUP_LENGTH));
        int timeout = (int) Math.min(Integer.MAX_VALUE, options.sendTimeout().toMillis());
        producer.setSendMsgTimeout(timeout);
        // Writers retry themselves, keeping a failed batch at the head of its queue.
        producer.setRetryTimesWhenSendAsyncFailed(0);
        // Rows are compact binary already; compressing costs more CPU than the broker saves.
        producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
        producer.start();
        LOG.info("job={}: shuffle producer started on name server {}", job, namesrv);
        Transport transport = (queue, body, callback) -> {
            try {
                producer.send(new Message(queue.getTopic(), body), queue, callback, timeout);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                callback.onException(e);
            } catch (Exception e) {
                callback.onException(e);
            }
        };
        return new ShuffleSender(transport, options, "rsql-shuffle-sender-" + job, producer::shutdown);
    }

    public Transport transport() {
        return transport;
    }

    public ShuffleOptions options() {
        return options;
    }

    /** Runs the writers' delayed work: batches whose delay is up, retries. */
    ScheduledExecutorService timer() {
        return timer;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        onClose.run();
    }
}
