package dev.rsql.runtime.exec.exchange;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The path from one upstream task to one downstream partition: batches of rows and {@link StreamEvent}s, in order.
 * Written by the upstream task's thread, read by the downstream task's thread. The reader-side fields (watermark,
 * idle, ended, blocked) belong to the downstream task.
 */
public final class Channel {

    /** Elements queued beyond which the upstream task pauses (backpressure). */
    static final int CAPACITY = 8192;

    private final InputGate gate;
    private final Runnable upstreamWakeup;
    private final long firstCheckpoint;
    private final Queue<List<Object>> batches = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();

    // Owned by the downstream task.
    private List<Object> current;
    private int next;
    long watermark = Long.MIN_VALUE;
    boolean idle;
    boolean ended;
    boolean blocked;

    Channel(InputGate gate, Runnable upstreamWakeup, long firstCheckpoint) {
        this.gate = gate;
        this.upstreamWakeup = upstreamWakeup;
        this.firstCheckpoint = firstCheckpoint;
    }

    /** The first checkpoint this channel takes part in (it was created while an earlier one ran). */
    long firstCheckpoint() {
        return firstCheckpoint;
    }

    /** Upstream: appends a batch of rows and events. */
    void push(List<Object> batch) {
        queued.addAndGet(batch.size());
        batches.add(batch);
        gate.notifyAvailable();
    }

    /** Upstream: true while the downstream task has not caught up. */
    boolean isCongested() {
        return queued.get() > CAPACITY;
    }

    /** Downstream: the next element, or null when none is queued. */
    Object poll() {
        if (current == null || next == current.size()) {
            current = batches.poll();
            next = 0;
            if (current == null) {
                return null;
            }
        }
        Object e = current.get(next);
        current.set(next++, null);
        if (queued.decrementAndGet() == CAPACITY / 2) {
            upstreamWakeup.run();
        }
        return e;
    }
}
