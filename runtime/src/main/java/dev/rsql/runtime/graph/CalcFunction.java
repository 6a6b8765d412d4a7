package dev.rsql.runtime.graph;

/** The filter and projection of a {@link CalcNode}. One instance per task; never shared between threads. */
public interface CalcFunction {

    default void open(FunctionContext context) throws Exception {
    }

    /** The projected fields of the input row, or null when the filter rejects it. */
    Object[] apply(Object[] input);

    default void close() throws Exception {
    }
}
