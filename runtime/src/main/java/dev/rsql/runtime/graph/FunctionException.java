package dev.rsql.runtime.graph;

import java.lang.reflect.Array;
import java.util.List;
import java.util.Map;

/**
 * A function (built-in or user-defined) failed on a record. The message names the function and its arguments; the
 * task adds the record's position, and the source table's error policy decides whether the job fails or the record is
 * skipped, as for a record that cannot be decoded.
 */
public final class FunctionException extends RuntimeException {

    private static final int MAX_ARGUMENT_CHARS = 200;

    private final String function;

    public FunctionException(String function, Object[] arguments, Throwable cause) {
        super(describe(function, arguments) + " failed: " + reason(cause), cause);
        this.function = function;
    }

    /** A function rejected its arguments (no underlying exception). */
    public FunctionException(String function, Object[] arguments, String reason) {
        super(describe(function, arguments) + " failed: " + reason);
        this.function = function;
    }

    /** The function's name as written in SQL. */
    public String function() {
        return function;
    }

    /** The first {@code FunctionException} in the cause chain of {@code t}, or null. */
    public static FunctionException find(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof FunctionException) {
                return (FunctionException) c;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }

    private static String reason(Throwable cause) {
        if (cause instanceof FunctionException) {
            return cause.getMessage();
        }
        String m = cause.getMessage();
        return cause.getClass().getName() + (m == null ? "" : ": " + m);
    }

    /** {@code NAME('text', 12, NULL)}: the call as SQL-like text, long arguments shortened. */
    public static String describe(String function, Object[] arguments) {
        StringBuilder sb = new StringBuilder(function).append('(');
        if (arguments != null) {
            for (int i = 0; i < arguments.length; i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                String text = render(arguments[i]);
                sb.append(text.length() > MAX_ARGUMENT_CHARS ? text.substring(0, MAX_ARGUMENT_CHARS) + "..." : text);
            }
        }
        return sb.append(')').toString();
    }

    private static String render(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof CharSequence || v instanceof Character) {
            return "'" + v.toString().replace("'", "''") + "'";
        }
        if (v instanceof byte[]) {
            StringBuilder sb = new StringBuilder("X'");
            for (byte b : (byte[]) v) {
                sb.append(String.format("%02X", b));
            }
            return sb.append('\'').toString();
        }
        if (v.getClass().isArray()) {
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < Array.getLength(v); i++) {
                sb.append(i > 0 ? ", " : "").append(render(Array.get(v, i)));
            }
            return sb.append(']').toString();
        }
        if (v instanceof List || v instanceof Map) {
            return v.toString();
        }
        return String.valueOf(v);
    }
}
