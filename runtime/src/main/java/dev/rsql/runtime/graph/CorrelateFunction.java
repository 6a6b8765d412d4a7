package dev.rsql.runtime.graph;

import java.util.function.Consumer;

/**
 * The table function of a {@link CorrelateNode}, with its arguments computed from the input row. One instance per
 * task; never shared between threads.
 */
public interface CorrelateFunction {

    default void open(FunctionContext context) throws Exception {
    }

    /**
     * Calls the table function once for an input row. Every value it produces (zero or more) is handed to {@code out}
     * before this returns; the node's row converter turns each into the function's columns.
     */
    void apply(Object[] input, Consumer<Object> out);

    default void close() throws Exception {
    }
}
