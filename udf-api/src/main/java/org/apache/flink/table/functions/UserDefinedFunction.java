package org.apache.flink.table.functions;

import java.io.Serializable;

/**
 * Base class of user-defined functions (Blink/Flink API, as the engine provides it). A function instance belongs to
 * one task: {@link #open} is called before the first call, {@link #close} after the last.
 */
public abstract class UserDefinedFunction implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Setup before the first call, e.g. reading job parameters from the context. Does nothing by default. */
    public void open(FunctionContext context) throws Exception {
    }

    /** Tear-down after the last call. Does nothing by default. */
    public void close() throws Exception {
    }

    /**
     * True when a call always returns the same result for the same arguments (the default). Return false for
     * functions like random() or now(), so that calls with constant arguments are not evaluated once.
     */
    public boolean isDeterministic() {
        return true;
    }

    /** The monotonicity of this function (informational). */
    public Monotonicity getMonotonicity() {
        return Monotonicity.NOT_MONOTONIC;
    }

    /** A name for logs and error messages. */
    @Override
    public String toString() {
        return getClass().getSimpleName();
    }
}
