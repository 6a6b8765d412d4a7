package dev.rsql.runtime.exec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Finds tasks stuck in one record (a function that loops, blocks or crawls) for longer than {@code task.stuck-timeout}:
 * a task's thread publishes only which record it is in and when its slice began; the watchdog, on the job's timer
 * thread, notices a record that does not change and only then reads the thread's stack for the function. A stuck task
 * is logged once and shows as STUCK in status until it moves on.
 */
final class TaskWatchdog {

    private static final Logger LOG = LoggerFactory.getLogger(TaskWatchdog.class);
    private static final long MAX_CHECK_MILLIS = 1_000;

    private final String jobName;
    private final long timeoutNanos;
    private final Supplier<Iterable<Task>> tasks;
    // Owned by the timer thread.
    private final Map<Task, Seen> seen = new HashMap<>();

    /** What a task was doing when first seen doing it. */
    private static final class Seen {
        final long slice;
        final long records;
        final long sinceNanos = System.nanoTime();

        Seen(long slice, long records) {
            this.slice = slice;
            this.records = records;
        }
    }

    TaskWatchdog(String jobName, Duration timeout, Supplier<Iterable<Task>> tasks) {
        this.jobName = jobName;
        this.timeoutNanos = timeout.toNanos();
        this.tasks = tasks;
    }

    /** Checks the tasks a few times per timeout; a timeout of 0 turns the watchdog off. */
    void start(ScheduledExecutorService timers) {
        if (timeoutNanos <= 0) {
            return;
        }
        long period = Math.max(10, Math.min(MAX_CHECK_MILLIS, TimeUnit.NANOSECONDS.toMillis(timeoutNanos) / 4));
        timers.scheduleWithFixedDelay(this::check, period, period, TimeUnit.MILLISECONDS);
    }

    private void check() {
        long now = System.nanoTime();
        Map<Task, Seen> still = new HashMap<>();
        for (Task task : tasks.get()) {
            if (!task.isRunning()) {
                continue;
            }
            Thread thread = task.sliceThread();
            long slice = task.sliceStartedNanos();
            long records = task.recordsStarted();
            Seen before = seen.get(task);
            boolean same = thread != null && before != null && before.slice == slice && before.records == records;
            StuckRecord stuck = task.stuck();
            if (stuck != null && !same) {
                task.stuck(null);
                LOG.info("job={} task={} moved on after {} s {}", jobName, task.id(),
                        String.format(Locale.ROOT, "%.1f",
                        (System.currentTimeMillis() - stuck.sinceMillis) / 1e3), stuck.where());
            }
            if (thread == null) {
                continue;
            }
            Seen s = same ? before : new Seen(slice, records);
            still.put(task, s);
            long forNanos = now - s.sinceNanos;
            if (same && stuck == null && forNanos >= timeoutNanos) {
                stuck = new StuckRecord(System.currentTimeMillis() - TimeUnit.NANOSECONDS.toMillis(forNanos),
                        task.currentRecord(), CallStack.function(thread.getStackTrace()));
                task.stuck(stuck);
                LOG.error("job={} task={} stuck for {} s {}", jobName, task.id(),
                        String.format(Locale.ROOT, "%.1f", forNanos / 1e9), stuck.where());
            }
        }
        seen.clear();
        seen.putAll(still);
    }

    /**
     * What a task's thread is doing now, for a task that does not stop: {@code in function F at P} (or the thread's
     * innermost frame when its stack shows no function).
     */
    static String describe(Task task) {
        Thread thread = task.sliceThread();
        task.recordsStarted(); // makes the record's position visible here
        String position = task.currentRecord();
        StackTraceElement[] stack = thread == null ? new StackTraceElement[0] : thread.getStackTrace();
        String function = CallStack.function(stack);
        return StuckRecord.where(function, position) + (function == null && stack.length > 0 ? ", in " + stack[0] : "");
    }
}
