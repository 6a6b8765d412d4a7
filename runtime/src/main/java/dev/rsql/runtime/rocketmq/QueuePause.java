package dev.rsql.runtime.rocketmq;

import java.util.function.BooleanSupplier;

/**
 * Pauses a consumer's queue while the buffer its reader fills from polls is full, and resumes it once the reader has
 * drained the buffer enough: the poll thread calls {@link #pauseIfFull}, the reader's thread {@link #resumeIfDrained}.
 * Both decide under one lock and check the buffer again there; otherwise a resume could slip in just before a pause,
 * and the queue would fetch while it counted as paused, with nothing left to bound the buffer.
 *
 * <p>The client looks at a paused queue again only a second later, so "drained" should leave the reader work for
 * meanwhile (half the buffer, say) rather than mean empty.
 */
public final class QueuePause {

    private final BooleanSupplier full;
    private final BooleanSupplier drained;
    private final Runnable pause;
    private final Runnable resume;
    private final Object lock = new Object();
    private volatile boolean paused;   // changed under lock only

    /**
     * @param full    whether the buffer is full (pause)
     * @param drained whether the buffer has room again (resume)
     */
    public QueuePause(BooleanSupplier full, BooleanSupplier drained, Runnable pause, Runnable resume) {
        this.full = full;
        this.drained = drained;
        this.pause = pause;
        this.resume = resume;
    }

    /** After buffering a poll: pauses the queue if the buffer is full. */
    public void pauseIfFull() {
        if (paused) {
            return;
        }
        synchronized (lock) {
            if (!paused && full.getAsBoolean()) {
                paused = true;
                pause.run();
            }
        }
    }

    /** After reading from the buffer: resumes the queue if it is paused and the buffer drained. */
    public void resumeIfDrained() {
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
}
