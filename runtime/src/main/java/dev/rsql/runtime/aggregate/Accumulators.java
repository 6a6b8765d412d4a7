package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.graph.FunctionContext;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.FieldSerializer;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.TypeSerializer;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The aggregates of one aggregation in one task, laid out side by side in one accumulator row: what an operator keeps
 * in state per group (and window). Applies each aggregate's FILTER.
 *
 * <p>DISTINCT aggregates over the same arguments share one map of distinct values ({@link DistinctAggregates}). Each
 * DISTINCT aggregate's fields are a map field followed by its own accumulator; the shared map is in the field of the
 * first aggregate of its arguments, the others' map fields stay NULL (so that a lone DISTINCT aggregate is laid out as
 * before maps were shared).
 *
 * <p>By default collections (DISTINCT values, value lists, maps of user data views) live inside the accumulator row.
 * After {@link #keepViewsInState} they are {@link StateMapView}s, one state entry per element: the operator then binds
 * them to the group ({@link #bindViews}) before it creates or reads ({@link #attachViews}) a group's row, stores the
 * row with those fields NULL ({@link #detachViews}) and clears them when it drops the group ({@link #clearViews}).
 */
public final class Accumulators {

    /** Per aggregate: its function (for a DISTINCT one, the aggregate of the distinct values), offset and filter. */
    private final AggregateFunction[] functions;
    private final int[] offsets;
    private final int[] filters;
    /** Per aggregate, whether it is DISTINCT (then its values come through {@link #distinct}). */
    private final boolean[] distinctCall;
    /** The shared maps of the DISTINCT aggregates, one per argument list, and the aggregates of each. */
    private final DistinctAggregates[] distinct;
    private final int[][] distinctMembers;
    private final List<DataType> types;
    /** Absolute accumulator fields kept as state views, and their views; empty unless {@link #keepViewsInState}. */
    private int[] viewFields = new int[0];
    private StateMapView<?, ?>[] views = new StateMapView<?, ?>[0];

    /** Aggregates that may be asked to take rows back or to merge ({@link #Accumulators(List, boolean)}). */
    public Accumulators(List<AggregateCall> calls) {
        this(calls, true);
    }

    /**
     * @param retracts false when rows are never taken back: the DISTINCT maps then only record that a value was seen,
     *                 so a value seen again costs no write (the layout is the same either way)
     */
    public Accumulators(List<AggregateCall> calls, boolean retracts) {
        int n = calls.size();
        functions = new AggregateFunction[n];
        offsets = new int[n];
        filters = new int[n];
        distinctCall = new boolean[n];
        Map<List<Integer>, List<Integer>> byArguments = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            AggregateCall call = calls.get(i);
            functions[i] = call.factory().get();
            filters[i] = call.filterField();
            if (call.distinct() != null) {
                distinctCall[i] = true;
                byArguments.computeIfAbsent(call.distinct().fields(), k -> new ArrayList<>()).add(i);
            }
        }
        Map<List<Integer>, DataType> mapTypes = new HashMap<>();
        for (List<Integer> members : byArguments.values()) {
            DistinctArguments arguments = calls.get(members.get(0)).distinct();
            int[] memberFilters = members.stream().mapToInt(m -> filters[m]).toArray();
            mapTypes.put(arguments.fields(), DistinctAggregates.mapType(arguments,
                    DistinctAggregates.filterCount(memberFilters)));
        }
        List<DataType> all = new ArrayList<>();
        int[] mapFields = new int[n];
        for (int i = 0; i < n; i++) {
            if (distinctCall[i]) {
                mapFields[i] = all.size();
                all.add(mapTypes.get(calls.get(i).distinct().fields()));
            }
            offsets[i] = all.size();
            all.addAll(functions[i].accumulatorTypes());
        }
        types = List.copyOf(all);
        distinct = new DistinctAggregates[byArguments.size()];
        distinctMembers = new int[byArguments.size()][];
        int g = 0;
        for (List<Integer> members : byArguments.values()) {
            int first = members.get(0);
            distinct[g] = new DistinctAggregates(calls.get(first).distinct(), mapFields[first],
                    members.stream().map(m -> functions[m]).toArray(AggregateFunction[]::new),
                    members.stream().mapToInt(m -> offsets[m]).toArray(),
                    members.stream().mapToInt(m -> filters[m]).toArray(), retracts);
            distinctMembers[g++] = members.stream().mapToInt(Integer::intValue).toArray();
        }
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
     * Keeps every view field ({@link AggregateFunction#viewFields}) of the operator {@code operatorId} as keyed state,
     * one entry per element, in the states {@code states} gives for the names {@code view-<aggregate>-<field>}
     * (stable for a given plan). A shared DISTINCT map is named after its first aggregate: {@code view-<aggregate>-0}
     * when it counts one filter (as a lone DISTINCT aggregate's map was), {@code distinct-<aggregate>} when it counts
     * several; the latter refuses state restored from before maps were shared (each aggregate's own map, which it
     * would silently ignore).
     */
    public void keepViewsInState(String operatorId, ViewStates states) {
        List<Integer> fields = new ArrayList<>();
        List<StateMapView<?, ?>> made = new ArrayList<>();
        for (int i = 0; i < functions.length; i++) {
            if (distinctCall[i]) {
                continue;  // the distinct values' aggregate keeps its own collections in the row
            }
            for (ViewField v : functions[i].viewFields()) {
                made.add(new StateMapView<>(states.valueState("view-" + i + "-" + v.field(), v.values()), v.keys()));
                fields.add(offsets[i] + v.field());
            }
        }
        for (int g = 0; g < distinct.length; g++) {
            DistinctAggregates d = distinct[g];
            ViewField v = ViewField.ofMap(d.mapField(), d.mapType());
            int first = distinctMembers[g][0];
            String name = d.countsPerFilter() ? "distinct-" + first : "view-" + first + "-0";
            if (d.countsPerFilter()) {
                refuseUnsharedMaps(states, operatorId, distinctMembers[g]);
            }
            made.add(new StateMapView<>(states.valueState(name, v.values()), v.keys()));
            fields.add(d.mapField());
        }
        viewFields = fields.stream().mapToInt(Integer::intValue).toArray();
        views = made.toArray(new StateMapView[0]);
    }

    /** Fails if these DISTINCT aggregates kept a map each in state (the layout of older versions). */
    private static void refuseUnsharedMaps(ViewStates states, String operatorId, int[] members) {
        TypeSerializer<Object> count = FieldSerializer.of(DataType.of(DataType.Kind.BIGINT).notNull());
        for (int m : members) {
            try (CloseableIterator<StateEntry<Object>> old = states.valueState("view-" + m + "-0", count).all()) {
                if (old.hasNext()) {
                    throw new IllegalStateException("the state of aggregation " + operatorId + " keeps a map of "
                            + "DISTINCT values per aggregate (written by an older version), this version one per "
                            + "argument list: run the job from a fresh state");
                }
            }
        }
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
        return all(AggregateFunction::canRetract, DistinctAggregates::canRetract);
    }

    /** True when every aggregate can merge accumulators (sliced windows, two-phase aggregation). */
    public boolean canMerge() {
        return all(AggregateFunction::canMerge, DistinctAggregates::canMerge);
    }

    /** Whether every plain aggregate and every group of DISTINCT aggregates (which answers for its members) can. */
    private boolean all(Predicate<AggregateFunction> plain, Predicate<DistinctAggregates> distinctGroup) {
        for (int i = 0; i < functions.length; i++) {
            if (!distinctCall[i] && !plain.test(functions[i])) {
                return false;
            }
        }
        for (DistinctAggregates d : distinct) {
            if (!distinctGroup.test(d)) {
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
        for (DistinctAggregates d : distinct) {
            d.create(acc);
        }
        attachViews(acc);
        return acc;
    }

    private boolean passes(int i, Object[] input) {
        return !distinctCall[i] && (filters[i] < 0 || Boolean.TRUE.equals(input[filters[i]]));
    }

    public void accumulate(Object[] acc, Object[] input) {
        for (int i = 0; i < functions.length; i++) {
            if (passes(i, input)) {
                functions[i].accumulate(acc, offsets[i], input);
            }
        }
        for (DistinctAggregates d : distinct) {
            d.accumulate(acc, input);
        }
    }

    public void retract(Object[] acc, Object[] input) {
        for (int i = 0; i < functions.length; i++) {
            if (passes(i, input)) {
                functions[i].retract(acc, offsets[i], input);
            }
        }
        for (DistinctAggregates d : distinct) {
            d.retract(acc, input);
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
        for (DistinctAggregates d : distinct) {
            if (d.canRetract()) {
                d.retract(acc, input);
            } else {
                all = false;
            }
        }
        return all;
    }

    public void merge(Object[] acc, Object[] other) {
        for (int i = 0; i < functions.length; i++) {
            if (!distinctCall[i]) {
                functions[i].merge(acc, offsets[i], other, offsets[i]);
            }
        }
        for (DistinctAggregates d : distinct) {
            d.merge(acc, other);
        }
    }

    /** Writes the results into {@code out[from ...]}. */
    public void values(Object[] acc, Object[] out, int from) {
        for (int i = 0; i < functions.length; i++) {
            out[from + i] = functions[i].getValue(acc, offsets[i]);
        }
    }
}
