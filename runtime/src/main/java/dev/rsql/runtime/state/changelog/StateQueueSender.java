package dev.rsql.runtime.state.changelog;

import dev.rsql.runtime.rocketmq.RocketMqRetry;
import org.apache.rocketmq.client.producer.MQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;

/** Appends messages to a state queue synchronously, retrying transient failures. */
final class StateQueueSender {

    private static final Logger LOG = LoggerFactory.getLogger(StateQueueSender.class);

    private final MQProducer producer;
    private final ChangelogSettings settings;

    StateQueueSender(MQProducer producer, ChangelogSettings settings) {
        this.producer = producer;
        this.settings = settings;
    }

    /** Sends one message and returns the offset the broker stored it at. {@code where}: for logs and errors. */
    long send(MessageQueue queue, String tag, byte[] body, String where) throws IOException {
        Message message = new Message(queue.getTopic(), tag, body);
        long timeout = settings.requestTimeout().toMillis();
        SendResult result;
        try {
            result = RocketMqRetry.call(() -> producer.send(message, queue, timeout), settings.retryTimeout());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(where + ": sending to the state queue was interrupted");
        } catch (Exception e) {
            throw new IOException(where + ": sending a message of " + body.length + " bytes to the state queue"
                    + " failed: " + e.getMessage(), e);
        }
        if (result.getSendStatus() != SendStatus.SEND_OK) {
            // stored, but the broker could not confirm the flush or replication it is configured for
            LOG.warn("{}: state message at offset {} stored with status {}", where, result.getQueueOffset(),
                    result.getSendStatus());
        }
        return result.getQueueOffset();
    }
}
