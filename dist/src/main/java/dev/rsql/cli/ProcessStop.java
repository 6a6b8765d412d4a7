package dev.rsql.cli;

import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.exec.TaskStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Makes sure the process of a job ends once the job has to: a job stops within {@code stop.timeout}, and when it
 * cannot — a task that does not yield (a function that loops, or called {@code System.exit} on the task's thread), a
 * stop that overruns — the process halts after the log says why. Halting loses nothing: only what a checkpoint
 * covers is committed, and a restart resumes from the last checkpoint.
 */
final class ProcessStop {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessStop.class);
    /** Beyond {@code stop.timeout}: closing sinks and sources after the tasks. */
    private static final Duration MARGIN = Duration.ofSeconds(5);
    static final int HALT_STATUS = 1;

    private final Job job;
    private final String name;
    private final Duration stopTimeout;
    private final Runnable writeStatus;

    ProcessStop(Job job, Duration stopTimeout, Runnable writeStatus) {
        this.job = job;
        this.name = job.graph().name();
        this.stopTimeout = stopTimeout;
        this.writeStatus = writeStatus;
    }

    /**
     * Halts the process on an error of the JVM (out of memory) in a thread outside the tasks: the process is in doubt
     * then, and its threads may never end. (A task's own error fails the job, naming the function and record.)
     */
    static void haltOnJvmErrors(String jobName) {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            if (e instanceof VirtualMachineError) {
                LOG.error("job={} {} in thread {}; halting the process (a restart resumes from the last checkpoint)",
                        jobName, e, thread.getName());
                Runtime.getRuntime().halt(HALT_STATUS);
            } else if (previous != null) {
                previous.uncaughtException(thread, e);
            } else {
                LOG.error("job={} uncaught exception in thread {}", jobName, thread.getName(), e);
            }
        });
    }

    /**
     * What the shutdown hook does (SIGTERM, Ctrl-C, System.exit): stops the job on another thread, so that the hook
     * can give up on it, and halts if the job did not stop completely in time.
     */
    void onShutdown() {
        if (job.termination().isDone()) {
            return;
        }
        LOG.info("job={} stop requested; stopping within {} s", name, stopTimeout.toSeconds());
        Thread stopper = new Thread(job::stop, "rsql-stop-job");
        stopper.setDaemon(true);
        stopper.start();
        boolean ended = job.awaitTermination(stopTimeout.plus(MARGIN));
        writeStatus.run();
        haltUnlessAllStopped(ended);
    }

    /**
     * Waits, writing the status every {@code interval}, until the job has ended on its own (finished or failed) or by a
     * stop; halts if it then left tasks behind, or if its stop overran.
     */
    void awaitEnd(Duration interval) {
        writeStatus.run();
        long stoppingSince = 0;
        while (!job.awaitTermination(interval)) {
            writeStatus.run();
            if (job.state() != JobInstance.State.STOPPING) {
                continue;
            }
            long now = System.nanoTime();
            if (stoppingSince == 0) {
                stoppingSince = now;
            } else if (now - stoppingSince > stopTimeout.plus(MARGIN).toNanos()) {
                haltUnlessAllStopped(false);
            }
        }
        writeStatus.run();
        haltUnlessAllStopped(true);
    }

    private synchronized void haltUnlessAllStopped(boolean ended) {
        List<String> left = job.status().tasks.stream()
                .filter(t -> t.state == TaskStatus.State.RUNNING || t.state == TaskStatus.State.STUCK)
                .map(t -> t.id).collect(Collectors.toList());
        if (ended && left.isEmpty()) {
            return;
        }
        LOG.error("job={} {}; halting the process: nothing after the last checkpoint is committed, a restart resumes"
                + " from it", name, ended ? "ended but tasks " + left + " did not stop"
                : "did not stop within " + stopTimeout.plus(MARGIN).toSeconds() + " s (tasks " + left + ")");
        Runtime.getRuntime().halt(HALT_STATUS);
    }
}
