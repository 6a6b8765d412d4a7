package dev.rsql.runtime.rocketmq;

import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.RequestTimeoutException;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/** Which RocketMQ failures go away by themselves, and synchronous broker calls retried through them. */
public final class RocketMqRetry {

    /** A synchronous request to a broker or name server. */
    @FunctionalInterface
    public interface Call<T> {
        T call() throws Exception;
    }

    private RocketMqRetry() {
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

    /**
     * Makes the call, again after a transient failure with a growing pause (50 ms up to 2 s) until it succeeds or
     * {@code timeout} has passed; then, or on any other failure, throws the last failure.
     */
    public static <T> T call(Call<T> call, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int attempt = 0; ; attempt++) {
            try {
                return call.call();
            } catch (Exception e) {
                long backoffMillis = Math.min(2000L, 50L << Math.min(attempt, 6));
                if (!isTransient(e) || System.nanoTime() + backoffMillis * 1_000_000 > deadline) {
                    throw e;
                }
                Thread.sleep(backoffMillis);
            }
        }
    }
}
