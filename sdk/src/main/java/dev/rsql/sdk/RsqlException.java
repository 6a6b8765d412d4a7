package dev.rsql.sdk;

/** A job cannot be submitted or started: the message, one line, says why and how to go on. */
public class RsqlException extends RuntimeException {

    public RsqlException(String message, Throwable cause) {
        super(message, cause);
    }
}
