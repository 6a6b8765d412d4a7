package dev.rsql.runtime.exec;

/** A task that has been in one record longer than {@code task.stuck-timeout}, as status shows it. */
public final class StuckRecord {

    /** Wall-clock time the task was first seen in the record. */
    public final long sinceMillis;
    /** The record's position, e.g. {@code file /x/in.jsonl, line 12}. */
    public final String position;
    /** The function the task's thread is in ({@code class.method}), or null if its stack shows none. */
    public final String function;

    StuckRecord(long sinceMillis, String position, String function) {
        this.sinceMillis = sinceMillis;
        this.position = position;
        this.function = function;
    }

    /** {@code in function F at P}, for logs and errors. */
    String where() {
        return where(function, position);
    }

    static String where(String function, String position) {
        return (function == null ? "" : "in function " + function + " ") + "at " + position;
    }
}
