package dev.rsql.sdk;

/**
 * Told about a job's state changes and its failure, on the engine's event thread (keep it short; an exception thrown
 * here is logged and does not reach the job). Register on the engine for every job or on one {@link RsqlJob}.
 */
public interface JobListener {

    /** The job went from one state to another (RUNNING to RESTARTING after a transient failure, to STOPPED, ...). */
    default void onStateChange(RsqlJob job, RsqlJob.State from, RsqlJob.State to) {
    }

    /** The job failed for good (a cause a restart cannot cure, or its restarts were used up); it has ended. */
    default void onFailure(RsqlJob job, Throwable cause) {
    }
}
