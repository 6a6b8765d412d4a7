package dev.rsql.runtime.format.json;

import dev.rsql.runtime.format.DecodeException;

/**
 * A value does not fit its type. Carries the path of the offending field relative to where it was thrown
 * ({@code price}, {@code [2].price}); enclosing readers prepend their segment while it unwinds. Cheap: no stack trace.
 */
public final class ValueException extends Exception {

    private String path;
    private final String reason;

    public ValueException(String path, String reason) {
        super(reason, null, false, false);
        this.path = path;
        this.reason = reason;
    }

    /** Prepends a field name or an {@code [index]} segment. */
    public ValueException under(String segment) {
        if (path == null || path.isEmpty()) {
            path = segment;
        } else if (path.charAt(0) == '[') {
            path = segment + path;
        } else {
            path = segment + "." + path;
        }
        return this;
    }

    /** Dotted path of the field, or null when the value as a whole is at fault. */
    public String path() {
        return path;
    }

    public String reason() {
        return reason;
    }

    public DecodeException toDecodeException() {
        return new DecodeException(path, reason);
    }

    @Override
    public String getMessage() {
        return path == null ? reason : "field '" + path + "': " + reason;
    }
}
