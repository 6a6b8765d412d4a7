package dev.rsql.sdk;

/**
 * The job's checkpointed state belongs to a script that changed in a way that would silently change its results (a
 * stateful statement changed), or another process holds its state directory. Nothing was started; the message names
 * what conflicts. Starting from scratch means deleting the job's state first ({@code bin/rsql reset JOB}).
 */
public final class IncompatibleStateException extends RsqlException {

    IncompatibleStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
