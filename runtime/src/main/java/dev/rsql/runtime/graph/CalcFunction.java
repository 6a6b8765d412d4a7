package dev.rsql.runtime.graph;

/** The filter and projection of a {@link CalcNode}. One instance per task; never shared between threads. */
public interface CalcFunction {

    /**
     * The package generated implementations are compiled into: on a stack, a frame there is the job's expression
     * code, and the frame it calls is the function being evaluated.
     */
    String GENERATED_PACKAGE = "dev.rsql.generated";

    default void open(FunctionContext context) throws Exception {
    }

    /** The projected fields of the input row, or null when the filter rejects it. */
    Object[] apply(Object[] input);

    default void close() throws Exception {
    }
}
