package dev.rsql.runtime.rocketmq;

import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.RequestTimeoutException;
import org.apache.rocketmq.remoting.exception.RemotingConnectException;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException;
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
     * Transient failures of a request the broker certainly did not carry out: it answered busy or flow control, or the
     * request never left the client (no connection, too many requests in flight). Repeating such a request cannot
     * store a message twice; repeating one that timed out or lost its connection can.
     */
    public static boolean isTransientRejection(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MQBrokerException) {
                return isTransient(t);
            }
            if (t instanceof RemotingConnectException || t instanceof RemotingTooMuchRequestException) {
                return true;
            }
        }
        return false;
    }

    /** The pause before retry number {@code attempt} (from 0): 50 ms, doubling, at most 2 s. */
    public static long backoffMillis(int attempt) {
        return Math.min(2000L, 50L << Math.min(attempt, 6));
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
                long backoffMillis = backoffMillis(attempt);
                if (!isTransient(e) || System.nanoTime() + backoffMillis * 1_000_000 > deadline) {
                    throw e;
                }
                Thread.sleep(backoffMillis);
            }
        }
    }
}
