package dev.rsql.runtime.format;

/** A payload does not fit the declared schema. Names the field when one is to blame. */
public class DecodeException extends Exception {

    private final String field;

    public DecodeException(String field, String message, Throwable cause) {
        super(field == null ? message : "field '" + field + "': " + message, cause);
        this.field = field;
    }

    public DecodeException(String field, String message) {
        this(field, message, null);
    }

    /** The field that failed, or null when the payload as a whole is malformed. */
    public String field() {
        return field;
    }
}
