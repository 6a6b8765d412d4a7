package dev.rsql.runtime.exec;

import org.slf4j.MDC;

/**
 * The job a thread works for, in the logging MDC under {@link #KEY}: a process running several jobs (server mode, an
 * embedding application) can write each job's lines to its own log. Set on the threads a job creates.
 */
public final class JobMdc {

    /** The MDC key holding the job name. */
    public static final String KEY = "rsql.job";

    private JobMdc() {
    }

    /** {@code r}, run with the job's name in the MDC of whatever thread runs it. */
    public static Runnable carrying(String job, Runnable r) {
        return () -> {
            MDC.put(KEY, job);
            r.run();
        };
    }
}
