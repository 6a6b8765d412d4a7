package org.apache.flink.table.functions;

import org.apache.flink.table.types.DataType;

/**
 * Base class of user-defined aggregates (Blink API).
 *
 * @param <ACC> the accumulator: the intermediate state of one group, a POJO with public fields
 */
public abstract class UserDefinedAggregateFunction<ACC> extends UserDefinedFunction {

    private static final long serialVersionUID = 1L;

    /** A new, empty accumulator. */
    public abstract ACC createAccumulator();

    /** The SQL result type, or null to take it from the function's type parameter / {@code getValue}. */
    public DataType getResultType() {
        return null;
    }

    /** The accumulator's type, or null to take it from {@link #createAccumulator}. */
    public DataType getAccumulatorType() {
        return null;
    }

    /** True when the aggregate can only run in an OVER window. */
    public boolean requiresOver() {
        return false;
    }
}
