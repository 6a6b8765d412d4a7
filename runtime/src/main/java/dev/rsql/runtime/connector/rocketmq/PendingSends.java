package dev.rsql.runtime.connector.rocketmq;

import java.util.concurrent.TimeoutException;

/**
 * The sends of one writer the broker has not acknowledged yet, and the first failure among them. The task thread
 * counts each message in ({@link #acquire}, blocking while too many are pending: backpressure) and waits for all of
 * them ({@link #awaitAll}); send callbacks count them out. A failure sticks: every later call throws it.
 */
final class PendingSends {

    private final String table;
    private final String taskId;
    private final String topic;
    private final long timeoutMillis;
    private final Object lock = new Object();
    private long pending;                        // guarded by lock
    private volatile Throwable failure;

    PendingSends(String table, String taskId, String topic, long timeoutMillis) {
        this.table = table;
        this.taskId = taskId;
        this.topic = topic;
        this.timeoutMillis = timeoutMillis;
    }

    /** Counts one more message, first waiting while {@code max} or more are unacknowledged. */
    void acquire(long max) throws Exception {
        synchronized (lock) {
            while (pending >= max && failure == null) {
                awaitAck("more than " + max + " messages unacknowledged");
            }
            pending++;
        }
    }

    /** {@code count} messages were stored, or failed with {@code error}. */
    void acknowledged(int count, Throwable error) {
        if (error != null) {
            fail(error);
        }
        synchronized (lock) {
            pending -= count;
            lock.notifyAll();
        }
    }

    /** Returns once every message counted in is acknowledged; throws the first failure. */
    void awaitAll() throws Exception {
        synchronized (lock) {
            while (pending > 0 && failure == null) {
                awaitAck(pending + " messages still unacknowledged");
            }
        }
        throwIfFailed();
    }

    boolean failed() {
        return failure != null;
    }

    void throwIfFailed() throws SendFailedException {
        Throwable f = failure;
        if (f != null) {
            throw new SendFailedException("table " + table + ": writing to topic " + topic + " failed: "
                    + (f instanceof Exception ? f.getMessage() : f.toString()), f);
        }
    }

    private void fail(Throwable error) {
        synchronized (lock) {
            if (failure == null) {
                failure = error;
            }
            lock.notifyAll();
        }
    }

    /** Waits (holding {@link #lock}) until an acknowledgement arrives; fails the writer after the timeout without one. */
    private void awaitAck(String what) throws Exception {
        long before = pending;
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (pending == before && failure == null) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                TimeoutException e = new TimeoutException("table " + table + " task " + taskId
                        + ": no acknowledgement from topic " + topic + " within " + timeoutMillis + " ms (" + what + ")");
                fail(e);
                throw e;
            }
            lock.wait(left);
        }
    }

    /** Sending to RocketMQ failed; the engine does not commit source positions past it. */
    static final class SendFailedException extends Exception {
        SendFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
