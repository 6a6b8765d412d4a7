package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.graph.FunctionContext;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * The aggregates of one aggregation in one task, laid out side by side in one accumulator row: what an operator keeps
 * in state per group (and window). Applies each aggregate's FILTER.
 */
public final class Accumulators {

    private final AggregateFunction[] functions;
    private final int[] offsets;
    private final int[] filters;
    private final List<DataType> types;

    public Accumulators(List<AggregateCall> calls) {
        functions = new AggregateFunction[calls.size()];
        offsets = new int[calls.size()];
        filters = new int[calls.size()];
        List<DataType> all = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            functions[i] = calls.get(i).factory().get();
            filters[i] = calls.get(i).filterField();
            offsets[i] = all.size();
            all.addAll(functions[i].accumulatorTypes());
        }
        types = List.copyOf(all);
    }

    public void open(FunctionContext context) throws Exception {
        for (AggregateFunction f : functions) {
            f.open(context);
        }
    }

    /** Closes every function, even when one fails; the first failure is thrown. */
    public void close() throws Exception {
        Exception failure = null;
        for (AggregateFunction f : functions) {
            try {
                f.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Types of the accumulator row. */
    public List<DataType> types() {
        return types;
    }

    public int size() {
        return functions.length;
    }

    /** True when every aggregate can take rows back (needed over a changelog input). */
    public boolean canRetract() {
        for (AggregateFunction f : functions) {
            if (!f.canRetract()) {
                return false;
            }
        }
        return true;
    }

    public Object[] create() {
        Object[] acc = new Object[types.size()];
        for (int i = 0; i < functions.length; i++) {
            functions[i].createAccumulator(acc, offsets[i]);
        }
        return acc;
    }

    private boolean passes(int i, Object[] input) {
        return filters[i] < 0 || Boolean.TRUE.equals(input[filters[i]]);
    }

    public void accumulate(Object[] acc, Object[] input) {
        for (int i = 0; i < functions.length; i++) {
            if (passes(i, input)) {
                functions[i].accumulate(acc, offsets[i], input);
            }
        }
    }

    public void retract(Object[] acc, Object[] input) {
        for (int i = 0; i < functions.length; i++) {
            if (passes(i, input)) {
                functions[i].retract(acc, offsets[i], input);
            }
        }
    }

    /**
     * Takes a row back from every aggregate that can do so from its accumulator alone; false when one could not
     * (see {@link AggregateFunction#tryRetract}) and the accumulators must be rebuilt from the remaining rows.
     */
    public boolean tryRetract(Object[] acc, Object[] input) {
        boolean all = true;
        for (int i = 0; i < functions.length; i++) {
            if (passes(i, input)) {
                all &= functions[i].tryRetract(acc, offsets[i], input);
            }
        }
        return all;
    }

    public void merge(Object[] acc, Object[] other) {
        for (int i = 0; i < functions.length; i++) {
            functions[i].merge(acc, offsets[i], other, offsets[i]);
        }
    }

    /** Writes the results into {@code out[from ...]}. */
    public void values(Object[] acc, Object[] out, int from) {
        for (int i = 0; i < functions.length; i++) {
            out[from + i] = functions[i].getValue(acc, offsets[i]);
        }
    }
}
