package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.graph.FunctionContext;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.TypeSerializer;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * The aggregates of one aggregation in one task, laid out side by side in one accumulator row: what an operator keeps
 * in state per group (and window). Applies each aggregate's FILTER.
 *
 * <p>By default collections (DISTINCT values, value lists, maps of user data views) live inside the accumulator row.
 * After {@link #keepViewsInState} they are {@link StateMapView}s, one state entry per element: the operator then binds
 * them to the group ({@link #bindViews}) before it creates or reads ({@link #attachViews}) a group's row, stores the
 * row with those fields NULL ({@link #detachViews}) and clears them when it drops the group ({@link #clearViews}).
 */
public final class Accumulators {

    private final AggregateFunction[] functions;
    private final int[] offsets;
    private final int[] filters;
    private final List<DataType> types;
    /** Absolute accumulator fields kept as state views, and their views; empty unless {@link #keepViewsInState}. */
    private int[] viewFields = new int[0];
    private StateMapView<?, ?>[] views = new StateMapView<?, ?>[0];

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

    /** Where an operator keeps the entries of one view field: a value state of that name and value serializer. */
    @FunctionalInterface
    public interface ViewStates {
        KeyedValueState<Object> valueState(String name, TypeSerializer<Object> values);
    }

    /**
     * Keeps every view field ({@link AggregateFunction#viewFields}) as keyed state, one entry per element, in the
     * states {@code states} gives for the names {@code view-<aggregate>-<field>} (stable for a given plan).
     */
    public void keepViewsInState(ViewStates states) {
        List<Integer> fields = new ArrayList<>();
        List<StateMapView<?, ?>> made = new ArrayList<>();
        for (int i = 0; i < functions.length; i++) {
            for (ViewField v : functions[i].viewFields()) {
                made.add(new StateMapView<>(states.valueState("view-" + i + "-" + v.field(), v.values()), v.keys()));
                fields.add(offsets[i] + v.field());
            }
        }
        viewFields = fields.stream().mapToInt(Integer::intValue).toArray();
        views = made.toArray(new StateMapView[0]);
    }

    /** Binds the state views to the group (serialized key, namespace) the next calls are about. */
    public void bindViews(byte[] key, byte[] namespace) {
        for (StateMapView<?, ?> v : views) {
            v.bind(key, namespace);
        }
    }

    /** Puts the bound state views into an accumulator row read from state (where those fields are NULL). */
    public void attachViews(Object[] acc) {
        for (int i = 0; i < viewFields.length; i++) {
            acc[viewFields[i]] = views[i];
        }
    }

    /** Sets the view fields of an accumulator row about to be stored, at {@code acc[from ...]}, to NULL. */
    public void detachViews(Object[] acc, int from) {
        for (int f : viewFields) {
            acc[from + f] = null;
        }
    }

    /** Drops every element of the bound group's state views (the group is gone). */
    public void clearViews() {
        for (StateMapView<?, ?> v : views) {
            v.clear();
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
        attachViews(acc);
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
