package dev.rsql.sdk;

import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.exec.JobInstance;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A job an {@link RsqlEngine} runs: its status and metrics, a graceful stop, and listeners. The job restarts by itself
 * from its last checkpoint after a transient failure (broker unreachable, timeouts); it ends when its bounded sources
 * are drained, when it is stopped, or when it fails for another cause.
 */
public final class RsqlJob {

    /** A job's state; the last three are final. */
    public enum State {
        CREATED, RUNNING, RESTARTING, STOPPING, FINISHED, STOPPED, FAILED;

        static State of(JobInstance.State s) {
            return valueOf(s.name());
        }

        /** True for FINISHED, STOPPED and FAILED. */
        public boolean isFinal() {
            return this == FINISHED || this == STOPPED || this == FAILED;
        }
    }

    private final String name;
    private final String script;
    private final Job job;
    private final List<JobListener> listeners = new CopyOnWriteArrayList<>();
    /** The state listeners were last told of; written by the engine's event thread only. */
    private volatile State notified = State.CREATED;

    RsqlJob(String name, String script, Job job) {
        this.name = name;
        this.script = script;
        this.job = job;
    }

    public String name() {
        return name;
    }

    /** The SQL script the job was planned from, or empty for a job submitted as a graph (the DSL's). */
    public Optional<String> script() {
        return Optional.ofNullable(script);
    }

    public State state() {
        return State.of(job.state());
    }

    public RsqlJobStatus status() {
        return RsqlJobStatus.of(job.status());
    }

    public JobMetrics metrics() {
        return new JobMetrics(job.status());
    }

    /** Why the job failed, once it has. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(job.failure());
    }

    /**
     * Stops the job gracefully, as {@code bin/stop.sh} does: records in hand are finished, sinks flushed, source
     * offsets and state checkpointed, so the job resumes there when submitted again (in distributed mode the other
     * engines running it take its queues over). Blocks until the job has ended.
     */
    public void stop() {
        job.stop();
    }

    /** Waits for the job to end; true if it has, false on timeout. */
    public boolean awaitTermination(Duration timeout) {
        return job.awaitTermination(timeout);
    }

    /** Tells {@code listener} of this job's state changes and failure (besides the engine's listeners). */
    public void addListener(JobListener listener) {
        listeners.add(listener);
    }

    public void removeListener(JobListener listener) {
        listeners.remove(listener);
    }

    /**
     * The runtime job underneath, for the engine's own tools (the command line's HTTP endpoint and status files);
     * not part of the stable API.
     */
    public Job runtimeJob() {
        return job;
    }

    List<JobListener> listeners() {
        return listeners;
    }

    State notified() {
        return notified;
    }

    void notified(State state) {
        notified = state;
    }

    @Override
    public String toString() {
        return "RsqlJob[" + name + ", " + state() + "]";
    }
}
