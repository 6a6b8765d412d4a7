package org.apache.flink.table.functions;

/**
 * A user-defined aggregate function. Besides {@link #createAccumulator} and {@link #getValue}, the class declares
 * public methods found by name:
 * <ul>
 *   <li>{@code void accumulate(ACC acc, inputs...)} (required, overloadable),</li>
 *   <li>{@code void retract(ACC acc, inputs...)} (needed on update streams),</li>
 *   <li>{@code void merge(ACC acc, Iterable<ACC> others)} (session windows, two-phase aggregation),</li>
 *   <li>{@code void resetAccumulator(ACC acc)} (optional).</li>
 * </ul>
 *
 * @param <T> the result type
 * @param <ACC> the accumulator type
 */
public abstract class AggregateFunction<T, ACC> extends UserDefinedAggregateFunction<ACC> {

    private static final long serialVersionUID = 1L;

    /** The result for the current accumulator. */
    public abstract T getValue(ACC accumulator);
}
