package dev.rsql.runtime.state;

/** A failure of the state store (I/O, corruption, misuse such as a state id collision). */
public class StateException extends RuntimeException {

    public StateException(String message) {
        super(message);
    }

    public StateException(String message, Throwable cause) {
        super(message, cause);
    }
}
