package dev.rsql.runtime.aggregate;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * One aggregate of an aggregation node: how to make the function (a new instance per task), which input field
 * filters it ({@code AGG(x) FILTER (WHERE cond)}, -1 for none), over which arguments it sees only distinct values
 * ({@code AGG(DISTINCT x)}; null when it sees every row; the function is then the aggregate of those values), and its
 * name for EXPLAIN.
 */
public record AggregateCall(String name, Supplier<? extends AggregateFunction> factory, int filterField,
                            DistinctArguments distinct) {

    public AggregateCall {
        Objects.requireNonNull(name);
        Objects.requireNonNull(factory);
    }

    public AggregateCall(String name, Supplier<? extends AggregateFunction> factory, int filterField) {
        this(name, factory, filterField, null);
    }

    public AggregateCall(String name, Supplier<? extends AggregateFunction> factory) {
        this(name, factory, -1, null);
    }
}
