package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Filters and projects rows with one compiled function (the planner generates it; the DSL passes a lambda). A calc
 * that filters a changelog of -U/+U pairs can split updates: the before and after rows are judged on their own, so
 * an update whose before row passes and after row does not leaves as a delete (-D), one whose after row alone passes
 * as an insert (+I). Without that, a sink keyed by the rows would keep a row that no longer passes. The halves of
 * one update are recognised by the update key (input fields they share, e.g. the group fields of an aggregation);
 * without one, every update is split into a delete and an insert.
 */
public final class CalcNode extends GraphNode {

    private final Supplier<? extends CalcFunction> functionFactory;
    private final String description;
    private final boolean splitsUpdates;
    private final int[] updateKey;
    private final int[] fieldsRead;

    public CalcNode(String id, GraphNode input, RowType outputType, Supplier<? extends CalcFunction> functionFactory,
                    String description, boolean splitsUpdates, int[] updateKey) {
        this(id, input, outputType, functionFactory, description, splitsUpdates, updateKey, null);
    }

    /** @param fieldsRead the input fields the function reads, or null when unknown (any field may be read) */
    public CalcNode(String id, GraphNode input, RowType outputType, Supplier<? extends CalcFunction> functionFactory,
                    String description, boolean splitsUpdates, int[] updateKey, int[] fieldsRead) {
        super(id, List.of(input), outputType);
        this.fieldsRead = fieldsRead == null ? null : fieldsRead.clone();
        this.functionFactory = Objects.requireNonNull(functionFactory);
        this.description = description;
        this.splitsUpdates = splitsUpdates;
        this.updateKey = updateKey.clone();
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    /** A new function instance; every task gets its own. */
    public CalcFunction newFunction() {
        return functionFactory.get();
    }

    /** What makes the function instances (the planner finds a generated calc's program by it). */
    public Supplier<? extends CalcFunction> functionFactory() {
        return functionFactory;
    }

    /** True when an update split by the filter becomes a delete or an insert. */
    public boolean splitsUpdates() {
        return splitsUpdates;
    }

    /** Input fields the -U and +U of one update share; empty when unknown. */
    public int[] updateKey() {
        return updateKey.clone();
    }

    /** The input fields the function reads, or null when unknown. */
    public int[] fieldsRead() {
        return fieldsRead == null ? null : fieldsRead.clone();
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
