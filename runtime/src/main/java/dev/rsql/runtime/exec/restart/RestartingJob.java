package dev.rsql.runtime.exec.restart;

import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.exec.JobInstance.State;
import dev.rsql.runtime.exec.JobMdc;
import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.graph.JobGraph;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A job that outlives transient failures ({@link TransientFailures}): when an attempt fails for such a cause, it waits
 * as its {@link RestartStrategy} says and runs a fresh attempt ({@link Job#create}), which resumes from the last
 * completed checkpoint the way any start does. An attempt is closed completely (its tasks, sinks, sources and clients,
 * within its own bounded shutdown) before the next is created, so the two never share a state directory, a consumer
 * group's client or a port. Any other failure, a stop, or the end of bounded input ends the job as it ends the attempt.
 *
 * <p>While it waits the job is {@link State#RESTARTING}; its status says which restart it waits for and why.
 */
public final class RestartingJob implements Job {

    private static final Logger LOG = LoggerFactory.getLogger(RestartingJob.class);
    /** Longer than an attempt's own stop timeout: stopping waits for the attempt first. */
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(3);
    private static final int CAUSE_LENGTH = 300;

    private final JobGraph graph;
    private final EngineContext engine;
    private final RestartStrategy strategy;
    private final String instanceId;
    private final CompletableFuture<State> termination = new CompletableFuture<>();
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    /** Creating and starting an attempt, and a stop's look at it, happen one at a time. */
    private final Object lifecycle = new Object();

    private volatile Job attempt;
    /** CREATED, RUNNING (then the attempt's state is shown), RESTARTING, or the final state. */
    private volatile State state = State.CREATED;
    private volatile long startedMillis = System.currentTimeMillis();
    private volatile int restarts;
    private volatile String restartCause;
    private volatile Throwable failure;
    /** Written under {@code lifecycle}; read without it by status. */
    private volatile boolean stopping;

    /** Creates the first attempt: a configuration error shows here, before anything starts. */
    public RestartingJob(JobGraph graph, EngineContext engine) {
        this.graph = graph;
        this.engine = engine;
        this.strategy = RestartStrategy.from(engine.configFor(graph.parameters()));
        this.instanceId = engine.instanceId();
        this.attempt = Job.create(graph, engine);
    }

    @Override
    public JobGraph graph() {
        return graph;
    }

    /**
     * Starts the first attempt. A start that fails for a transient cause (the broker is down right now) is not an
     * error: the job restarts like after any transient failure. Any other start failure ends the job and is thrown.
     */
    @Override
    public void start() throws Exception {
        Job first;
        synchronized (lifecycle) {
            if (state != State.CREATED || stopping) {
                throw new IllegalStateException("job " + graph.name() + " was already started");
            }
            state = State.RUNNING;
            first = attempt;
            startedMillis = System.currentTimeMillis();
            try {
                first.start();
            } catch (Exception e) {
                if (!TransientFailures.isTransient(e)) {
                    first.awaitTermination(STOP_TIMEOUT);
                    finish(State.FAILED, e);
                    throw e;
                }
            }
        }
        Thread supervisor = new Thread(JobMdc.carrying(graph.name(), () -> supervise(first)),
                "rsql-" + graph.name().replace('/', '.') + "-restarts");
        supervisor.setDaemon(true);
        supervisor.start();
    }

    /** Follows the attempts: waits for each to end, and restarts or ends the job. */
    private void supervise(Job first) {
        Job current = first;
        long startedNanos = System.nanoTime();
        while (true) {
            State end = current.termination().join();
            Throwable cause = current.failure();
            long ranMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
            if (end != State.FAILED || cause == null) {
                finish(end, null);
                return;
            }
            if (!TransientFailures.isTransient(cause)) {
                finish(State.FAILED, cause);
                return;
            }
            if (stopping) {
                // Asked to stop while failing for a cause a restart would have cured: the next run resumes from the
                // last checkpoint like after any stop.
                finish(State.STOPPED, null);
                return;
            }
            long delay = strategy.nextDelayMillis(ranMillis);
            String why = describe(cause);
            if (delay < 0) {
                LOG.error("job={} instance={} gives up after {} restarts ({}): {}", graph.name(), instanceId,
                        restarts, strategy.describe(), why);
                finish(State.FAILED, cause);
                return;
            }
            restartCause = why;
            restarts++;
            state = State.RESTARTING;
            LOG.warn("job={} instance={} restart {} in {} ms from the last checkpoint, after a transient failure: {}",
                    graph.name(), instanceId, restarts, delay, why);
            try {
                if (stopRequested.await(delay, TimeUnit.MILLISECONDS)) {
                    finish(State.STOPPED, null);
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                finish(State.STOPPED, null);
                return;
            }
            synchronized (lifecycle) {
                if (stopping) {
                    finish(State.STOPPED, null);
                    return;
                }
                try {
                    current = Job.create(graph, engine);
                } catch (RuntimeException e) {
                    LOG.error("job={} instance={} cannot create restart {}: {}", graph.name(), instanceId, restarts,
                            e.getMessage());
                    finish(State.FAILED, e);
                    return;
                }
                attempt = current;
                state = State.RUNNING;
                startedNanos = System.nanoTime();
                try {
                    current.start();
                    LOG.info("job={} instance={} restart {} started", graph.name(), instanceId, restarts);
                } catch (Exception e) {
                    // The attempt has failed and ends by itself; the next round decides on its failure.
                    LOG.debug("job={} restart {} failed to start", graph.name(), restarts, e);
                }
            }
        }
    }

    private void finish(State end, Throwable cause) {
        if (termination.isDone()) {
            return;
        }
        failure = cause;
        state = end;
        if (restarts > 0) {
            LOG.info("job={} instance={} {} after {} restarts", graph.name(), instanceId, end.name().toLowerCase(),
                    restarts);
        }
        termination.complete(end);
    }

    /** The failure in one line, for the log and status. */
    static String describe(Throwable cause) {
        String m = cause.getMessage();
        String text = m == null || m.isBlank() ? cause.getClass().getSimpleName() : m;
        text = text.replaceAll("\\s+", " ").trim();
        return text.length() <= CAUSE_LENGTH ? text : text.substring(0, CAUSE_LENGTH) + "...";
    }

    /** Stops the running attempt gracefully, or the wait for the next; blocks until the job has ended. */
    @Override
    public void stop() {
        Job current;
        boolean started;
        synchronized (lifecycle) {
            stopping = true;
            current = attempt;
            started = state != State.CREATED;
        }
        stopRequested.countDown();
        current.stop();
        if (!started) {
            finish(State.STOPPED, null);
        }
        awaitTermination(STOP_TIMEOUT);
    }


    @Override
    public CompletableFuture<State> termination() {
        return termination;
    }

    /**
     * RESTARTING from the moment an attempt fails for a transient cause (while it shuts down, and while the job
     * waits); while an attempt runs, its state.
     */
    @Override
    public State state() {
        State s = state;
        if (s != State.RUNNING) {
            return s;
        }
        Job current = attempt;
        State a = current.state();
        return a == State.CREATED ? State.RUNNING : isFailingTransiently(current, a) ? State.RESTARTING : a;
    }

    private boolean isFailingTransiently(Job current, State a) {
        Throwable f = current.failure();
        return (a == State.STOPPING || a == State.FAILED) && f != null && !stopping
                && TransientFailures.isTransient(f);
    }

    /** Why the job failed (once it has ended), or null. */
    @Override
    public Throwable failure() {
        return failure;
    }

    @Override
    public JobStatus status() {
        Job current = attempt;
        JobStatus s = current.status();
        State shown = state();
        int n = restarts;
        String cause = restartCause;
        if (shown == State.RESTARTING && state == State.RUNNING) {
            // The attempt is failing and shutting down; the restart is not counted yet.
            n++;
            cause = describe(current.failure());
        }
        boolean waiting = shown == State.RESTARTING;
        Throwable f = failure;
        return new JobStatus(s.job, s.instance, shown, startedMillis, s.updatedMillis,
                waiting ? List.of() : s.tasks, waiting ? null : f != null ? f.getMessage() : s.error, n, cause,
                s.dimensionTables, s.checkpoints);
    }
}
