package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/** Filters and projects rows with one compiled function (the planner generates it; the DSL passes a lambda). */
public final class CalcNode extends GraphNode {

    private final Supplier<? extends CalcFunction> functionFactory;
    private final String description;

    public CalcNode(String id, GraphNode input, RowType outputType, Supplier<? extends CalcFunction> functionFactory,
                    String description) {
        super(id, List.of(input), outputType);
        this.functionFactory = Objects.requireNonNull(functionFactory);
        this.description = description;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    /** A new function instance; every task gets its own. */
    public CalcFunction newFunction() {
        return functionFactory.get();
    }

    @Override
    public String kind() {
        return "Calc";
    }

    @Override
    public String describe() {
        return description;
    }
}
