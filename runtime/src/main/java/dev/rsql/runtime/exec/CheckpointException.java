package dev.rsql.runtime.exec;

/** Flushing sinks or committing a position failed; the position was not committed. */
public final class CheckpointException extends RuntimeException {

    public CheckpointException(String message, Throwable cause) {
        super(message + ": " + cause.getMessage(), cause);
    }
}
