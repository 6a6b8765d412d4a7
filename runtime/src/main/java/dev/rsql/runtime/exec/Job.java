package dev.rsql.runtime.exec;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.graph.JobGraph;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One process's part of a running job: all of it ({@link JobInstance}), or, with {@code execution.mode =
 * distributed}, the queues this process owns among the instances of the job ({@link DistributedJob}).
 */
public interface Job extends AutoCloseable {

    /** The job for {@code graph} in the mode its settings ask for. */
    static Job create(JobGraph graph, EngineContext engine) {
        return isDistributed(graph, engine) ? new DistributedJob(graph, engine) : new JobInstance(graph, engine);
    }

    /** True when the job's settings ask for {@code execution.mode = distributed}, false for {@code local}. */
    static boolean isDistributed(JobGraph graph, EngineContext engine) {
        return isDistributed(engine.configFor(graph.parameters()));
    }

    static boolean isDistributed(Options config) {
        String mode = config.getOrDefault("local", "execution.mode");
        switch (mode.toLowerCase()) {
            case "local":
                return false;
            case "distributed":
                return true;
            default:
                throw new ConfigException("execution.mode must be 'local' or 'distributed', got '" + mode + "'");
        }
    }

    JobGraph graph();

    /** Creates the job's parts and starts reading. */
    void start() throws Exception;

    /** Stops gracefully: what was read is checkpointed, so a restart (or another instance) resumes there. */
    void stop();

    /** Waits for the job to end; returns false on timeout. */
    default boolean awaitTermination(Duration timeout) {
        try {
            termination().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            return true;   // ended exceptionally: ended all the same
        }
    }

    /** Completes with the final state when the job has ended. */
    CompletableFuture<JobInstance.State> termination();

    JobInstance.State state();

    /** Why the job failed, or null. */
    Throwable failure();

    JobStatus status();

    @Override
    default void close() {
        stop();
    }
}
