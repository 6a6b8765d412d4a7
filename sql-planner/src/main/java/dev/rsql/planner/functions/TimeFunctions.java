package dev.rsql.planner.functions;

import org.apache.calcite.linq4j.function.NonDeterministic;

/** Runtime implementations of time functions; generated code calls them directly. */
public final class TimeFunctions {

    private TimeFunctions() {
    }

    /** PROCTIME(): the processing time of the record, as a TIMESTAMP (UTC wall clock, milliseconds). */
    @NonDeterministic
    public static long proctime() {
        return System.currentTimeMillis();
    }
}
