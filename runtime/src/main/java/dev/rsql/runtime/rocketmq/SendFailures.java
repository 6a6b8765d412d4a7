package dev.rsql.runtime.rocketmq;

import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.RequestTimeoutException;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;

import java.util.concurrent.TimeoutException;

/** Tells failures of a send that are worth retrying from those that are not. */
public final class SendFailures {

    private SendFailures() {
    }

    /**
     * Failures that go away by themselves: the broker is busy or flow-controlling, a request timed out or a
     * connection dropped. Rejected messages (too large, topic not allowed) are not.
     */
    public static boolean isTransient(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MQBrokerException) {
                int code = ((MQBrokerException) t).getResponseCode();
                return code == ResponseCode.SYSTEM_BUSY || code == ResponseCode.SYSTEM_ERROR
                        || code == ResponseCode.SERVICE_NOT_AVAILABLE;
            }
            if (t instanceof RemotingException || t instanceof RequestTimeoutException
                    || t instanceof TimeoutException) {
                return true;
            }
        }
        return false;
    }
}
