package dev.rsql.runtime.rocketmq;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A queue is paused once when its buffer fills, resumed once when it drains, and never left paused by a race. */
class QueuePauseTest {

    private static final int LIMIT = 64;

    private final AtomicInteger buffered = new AtomicInteger();
    private final AtomicInteger pauses = new AtomicInteger();
    private final AtomicInteger resumes = new AtomicInteger();
    /** A pause of a paused queue or a resume of a running one. */
    private final AtomicBoolean unmatched = new AtomicBoolean();
    private final QueuePause pause = new QueuePause(() -> buffered.get() >= LIMIT, () -> buffered.get() <= LIMIT / 2,
            () -> unmatched.compareAndSet(false, pauses.incrementAndGet() - resumes.get() != 1),
            () -> unmatched.compareAndSet(false, pauses.get() - resumes.incrementAndGet() != 0));

    @Test
    void pausesWhenFullAndResumesAtHalf() {
        buffered.set(LIMIT - 1);
        pause.pauseIfFull();
        pause.resumeIfDrained();
        assertEquals(0, pauses.get() + resumes.get(), "neither full nor paused");
        buffered.set(LIMIT);
        pause.pauseIfFull();
        pause.pauseIfFull();
        assertEquals(1, pauses.get());
        buffered.set(LIMIT / 2 + 1);
        pause.resumeIfDrained();
        assertEquals(0, resumes.get(), "not drained enough");
        buffered.set(LIMIT / 2);
        pause.resumeIfDrained();
        pause.resumeIfDrained();
        assertEquals(1, resumes.get());
        assertFalse(unmatched.get());
    }

    @Test
    void aPollThreadAndAReaderNeverLeaveADrainedQueuePaused() throws Exception {
        int messages = 200_000;
        Thread poller = new Thread(() -> {
            for (int i = 0; i < messages; i++) {
                while (pauses.get() > resumes.get()) {
                    Thread.onSpinWait();   // a paused queue gets no polls
                }
                buffered.incrementAndGet();
                pause.pauseIfFull();
            }
        });
        poller.start();
        int read = 0;
        while (read < messages && (poller.isAlive() || buffered.get() > 0)) {
            if (buffered.get() > 0) {
                buffered.decrementAndGet();
                read++;
            }
            pause.resumeIfDrained();
        }
        poller.join();
        assertEquals(messages, read);
        assertFalse(unmatched.get(), "a queue paused twice or resumed twice");
        assertEquals(pauses.get(), resumes.get(), "the drained queue is still paused");
        assertTrue(pauses.get() > 0, "the buffer never filled");
    }
}
