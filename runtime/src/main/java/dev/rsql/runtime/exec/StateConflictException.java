package dev.rsql.runtime.exec;

/**
 * This run cannot use the job's local state: another process owns the state directory, or its checkpoint belongs to
 * a script that changed in a way that would silently change results. Not transient; the message, one line for the
 * user, says what holds the state or what changed, and how to go on.
 */
public final class StateConflictException extends RuntimeException {
    public StateConflictException(String message) {
        super(message);
    }
}
