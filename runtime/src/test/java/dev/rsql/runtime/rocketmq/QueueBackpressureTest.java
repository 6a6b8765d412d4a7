package dev.rsql.runtime.rocketmq;

import dev.rsql.runtime.testing.Await;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A poll thread waits for a reader that makes room and pauses the queue of one that does not; a paused queue is
 * resumed once when the buffer drains, and never left paused by a race.
 */
class QueueBackpressureTest {

    private static final int LIMIT = 64;

    private final AtomicInteger buffered = new AtomicInteger();
    private final AtomicInteger pauses = new AtomicInteger();
    private final AtomicInteger resumes = new AtomicInteger();
    /** A pause of a paused queue or a resume of a running one. */
    private final AtomicBoolean unmatched = new AtomicBoolean();

    private QueueBackpressure backpressure(Duration maxWait) {
        return new QueueBackpressure(() -> buffered.get() >= LIMIT, () -> buffered.get() <= LIMIT / 2,
                () -> unmatched.compareAndSet(false, pauses.incrementAndGet() - resumes.get() != 1),
                () -> unmatched.compareAndSet(false, pauses.get() - resumes.incrementAndGet() != 0), maxWait);
    }

    @Test
    void pausesAFullQueueOnceAndResumesItAtHalf() {
        QueueBackpressure b = backpressure(Duration.ZERO);
        buffered.set(LIMIT - 1);
        b.awaitRoom();
        b.taken();
        assertEquals(0, pauses.get() + resumes.get(), "neither full nor paused");
        buffered.set(LIMIT);
        b.awaitRoom();
        b.awaitRoom();
        assertEquals(1, pauses.get());
        buffered.set(LIMIT / 2 + 1);
        b.taken();
        assertEquals(0, resumes.get(), "not drained enough");
        buffered.set(LIMIT / 2);
        b.taken();
        b.taken();
        assertEquals(1, resumes.get());
        assertFalse(unmatched.get());
    }

    @Test
    void aPollThreadWaitsForAReaderThatMakesRoomInsteadOfPausing() throws Exception {
        QueueBackpressure b = backpressure(Duration.ofMinutes(5));
        buffered.set(LIMIT + 10);
        CompletableFuture<Void> poll = CompletableFuture.runAsync(b::awaitRoom);
        while (buffered.get() >= LIMIT) {
            assertFalse(poll.isDone(), "returned with the buffer full");
            buffered.decrementAndGet();
            b.taken();
        }
        poll.get(30, TimeUnit.SECONDS);
        assertEquals(0, pauses.get(), "paused a queue whose reader made room");
    }

    @Test
    void aReaderThatMakesNoRoomHasItsQueuePaused() throws Exception {
        QueueBackpressure b = backpressure(Duration.ofMillis(50));
        buffered.set(LIMIT);
        CompletableFuture.runAsync(b::awaitRoom).get(30, TimeUnit.SECONDS);
        assertEquals(1, pauses.get());
        buffered.set(0);
        b.taken();
        assertEquals(1, resumes.get());
        assertFalse(unmatched.get());
    }

    @Test
    void aPollThreadAndAReaderNeverLeaveADrainedQueuePaused() throws Exception {
        QueueBackpressure b = backpressure(Duration.ofNanos(1000));
        int messages = 200_000;
        Thread poller = new Thread(() -> {
            for (int i = 0; i < messages; i++) {
                while (pauses.get() > resumes.get()) {
                    Thread.onSpinWait();   // a paused queue gets no polls
                }
                buffered.incrementAndGet();
                b.awaitRoom();
            }
        });
        poller.start();
        // The reader starts once the poller has filled the buffer and paused the queue: left to the scheduler, a
        // reader that keeps up would never let the buffer fill, and no pause would race a resume.
        Await.until("the poller to pause a full queue", Duration.ofSeconds(30), () -> pauses.get() > 0);
        int read = 0;
        while (read < messages && (poller.isAlive() || buffered.get() > 0)) {
            if (buffered.get() > 0) {
                buffered.decrementAndGet();
                read++;
            }
            b.taken();
        }
        poller.join();
        assertEquals(messages, read);
        assertFalse(unmatched.get(), "a queue paused twice or resumed twice");
        assertEquals(pauses.get(), resumes.get(), "the drained queue is still paused");
    }
}
