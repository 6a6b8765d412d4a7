package dev.rsql.sdk;

/**
 * A script the planner refused (syntax, unknown table or column, a type mismatch, an unsupported feature); nothing
 * was started. The message starts with the position ({@code line 4, column 9: ...}) when one is known.
 */
public final class ScriptException extends RsqlException {

    private final int line;
    private final int column;

    ScriptException(String message, int line, int column, Throwable cause) {
        super(message, cause);
        this.line = line;
        this.column = column;
    }

    /** The line of the error in the script (1-based), or 0 when the error has no position. */
    public int line() {
        return line;
    }

    /** The column of the error in its line (1-based), or 0. */
    public int column() {
        return column;
    }
}
