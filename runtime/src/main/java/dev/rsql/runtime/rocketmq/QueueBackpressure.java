package dev.rsql.runtime.rocketmq;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Bounds the buffer a reader fills from a consumer's polls. When a poll leaves the buffer full, the poll thread waits
 * for the reader to make room ({@link #awaitRoom}); only if the reader makes none within the wait is the queue paused
 * at the consumer, so that a stuck reader holds back only its own queue, and resumed once the reader has drained the
 * buffer enough ({@link #taken}).
 *
 * <p>The client looks at a paused queue again only a second after it is resumed. A reader that drains its buffer
 * faster than that (a shuffle task's inbox of a few dozen large messages) should wait, or it sits idle after every
 * pause. A reader whose half buffer is most of a second's work (a source's) can pause at once, with a wait of zero:
 * waiting would cost the poll thread a wake-up per poll. Either way "drained" should leave the reader work for that
 * second (half the buffer, say) rather than mean empty.
 *
 * <p>Pause and resume decide under one lock and check the buffer again there; otherwise a resume could slip in just
 * before a pause, and the queue would fetch while it counted as paused, with nothing left to bound the buffer.
 */
public final class QueueBackpressure {

    /** How long a poll thread waits for a reader to make room before pausing the reader's queue. */
    public static final Duration ROOM_WAIT = Duration.ofMillis(200);

    private final BooleanSupplier full;
    private final BooleanSupplier drained;
    private final Runnable pause;
    private final Runnable resume;
    private final long maxWaitNanos;
    private final Object lock = new Object();
    private volatile boolean paused;   // changed under lock only
    private volatile Thread waiting;

    /**
     * @param full    whether the buffer is full (wait, then pause); false also for a reader that is closing
     * @param drained whether the buffer has room enough to resume
     * @param maxWait how long {@link #awaitRoom} waits before it pauses the queue; zero pauses at once
     */
    public QueueBackpressure(BooleanSupplier full, BooleanSupplier drained, Runnable pause, Runnable resume,
                             Duration maxWait) {
        this.full = full;
        this.drained = drained;
        this.pause = pause;
        this.resume = resume;
        this.maxWaitNanos = maxWait.toNanos();
    }

    /**
     * After buffering a poll, on the poll thread: returns once the buffer has room, or after the wait with the queue
     * paused.
     */
    public void awaitRoom() {
        if (paused || !full.getAsBoolean()) {
            return;
        }
        if (maxWaitNanos == 0) {
            pauseIfFull();
            return;
        }
        long deadline = System.nanoTime() + maxWaitNanos;
        waiting = Thread.currentThread();
        try {
            while (full.getAsBoolean() && !Thread.currentThread().isInterrupted()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    pauseIfFull();
                    return;
                }
                LockSupport.parkNanos(this, left);
            }
        } finally {
            waiting = null;
        }
    }

    /** After reading from the buffer, on the reader's thread: lets a waiting poll thread go, or resumes the queue. */
    public void taken() {
        Thread poller = waiting;
        if (poller != null && !full.getAsBoolean()) {
            LockSupport.unpark(poller);
        }
        if (!paused) {
            return;
        }
        synchronized (lock) {
            if (paused && drained.getAsBoolean()) {
                paused = false;
                resume.run();
            }
        }
    }

    private void pauseIfFull() {
        synchronized (lock) {
            if (!paused && full.getAsBoolean()) {
                paused = true;
                pause.run();
            }
        }
    }
}
