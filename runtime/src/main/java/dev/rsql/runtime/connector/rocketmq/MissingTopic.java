package dev.rsql.runtime.connector.rocketmq;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;

/**
 * Tells a topic that does not exist (yet) from other failures to read its route: the name server answered
 * {@code TOPIC_NOT_EXIST}, or a route without queues. An unreachable name server is not a missing topic.
 */
final class MissingTopic {

    private MissingTopic() {
    }

    static boolean is(MQClientException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MQClientException m && (m.getResponseCode() == ResponseCode.TOPIC_NOT_EXIST
                    || String.valueOf(m.getErrorMessage()).contains("Namesrv return empty"))) {
                return true;
            }
        }
        return false;
    }
}
