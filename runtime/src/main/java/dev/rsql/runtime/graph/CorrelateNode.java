package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code FROM t, LATERAL TABLE(f(...)) AS T(...)}: for every input row, calls a table function and emits the input
 * row's fields followed by the function's columns, once per function row. A cross (inner) correlate drops input rows
 * for which the function produces nothing; a left correlate ({@code LEFT JOIN ... ON TRUE}) keeps them, padded with
 * NULLs.
 */
public final class CorrelateNode extends GraphNode {

    private final Supplier<? extends CorrelateFunction> functionFactory;
    private final Function<Object, Object[]> rowConverter;
    private final boolean left;
    private final int functionColumns;
    private final String description;

    /**
     * @param rowConverter turns a value the function produced into its columns (the same converter is shared by all
     *     tasks, so it must be stateless); returns null to drop the value
     */
    public CorrelateNode(String id, GraphNode input, RowType outputType,
                         Supplier<? extends CorrelateFunction> functionFactory, Function<Object, Object[]> rowConverter,
                         boolean left, String description) {
        super(id, List.of(input), outputType);
        this.functionFactory = Objects.requireNonNull(functionFactory);
        this.rowConverter = Objects.requireNonNull(rowConverter);
        this.left = left;
        this.functionColumns = outputType.size() - input.outputType().size();
        if (functionColumns < 0) {
            throw new IllegalArgumentException("correlate output has fewer fields than its input");
        }
        this.description = description;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    /** A new function instance; every task gets its own. */
    public CorrelateFunction newFunction() {
        return functionFactory.get();
    }

    public Function<Object, Object[]> rowConverter() {
        return rowConverter;
    }

    /** True for a left correlate: input rows without function output are kept, padded with NULLs. */
    public boolean isLeft() {
        return left;
    }

    /** Number of columns the function adds. */
    public int functionColumns() {
        return functionColumns;
    }

    @Override
    public String kind() {
        return "Correlate";
    }

    @Override
    public String describe() {
        return (left ? "left " : "") + description;
    }
}
