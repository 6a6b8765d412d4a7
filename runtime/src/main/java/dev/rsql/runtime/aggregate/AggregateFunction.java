package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.graph.FunctionContext;
import dev.rsql.runtime.types.DataType;

import java.util.List;

/**
 * One aggregate of a GROUP BY (COUNT, SUM, a user's UDAF...). Its accumulator is a run of fields inside the row of
 * all accumulators of a group, starting at {@code offset}; the fields' types ({@link #accumulatorTypes}) say how
 * they are stored in state. The function reads its arguments from the input row itself (it knows their indices), so
 * operators call every aggregate the same way. Instances are used by one task.
 */
public interface AggregateFunction {

    /** Called once before use, on the task's thread (a user's aggregate function opens itself here). */
    default void open(FunctionContext context) throws Exception {
    }

    /** Called once when the task ends. */
    default void close() throws Exception {
    }

    /** Types of the accumulator's fields, in order. */
    List<DataType> accumulatorTypes();

    /**
     * Accumulator fields holding a collection as a {@code java.util.Map}: an operator with keyed state may replace
     * each with a {@link StateMapView} bound to the group, so that its entries are state entries of their own instead
     * of part of the accumulator row (then NULL in the stored row). The function must use such a map only through the
     * {@code Map} interface, never replace it, and not rely on {@code put}/{@code remove} returning the previous value.
     */
    default List<ViewField> viewFields() {
        return List.of();
    }

    /** Writes the empty accumulator into {@code acc[offset ...]}. */
    void createAccumulator(Object[] acc, int offset);

    void accumulate(Object[] acc, int offset, Object[] input);

    /** Takes a row back out (the input is a changelog with updates or deletes). */
    default void retract(Object[] acc, int offset, Object[] input) {
        throw new UnsupportedOperationException(name() + " cannot take back rows (its input has updates or deletes)");
    }

    /**
     * Takes a row back if the accumulator alone allows it; false when it must instead be rebuilt from the remaining
     * rows (a window of rows kept in state: MIN or MAX losing its extreme). By default: {@link #retract} if supported.
     */
    default boolean tryRetract(Object[] acc, int offset, Object[] input) {
        if (!canRetract()) {
            return false;
        }
        retract(acc, offset, input);
        return true;
    }

    /** Whether {@link #retract} is supported. */
    default boolean canRetract() {
        return false;
    }

    /** Whether {@link #merge} is supported (sliced windows are combined from slices only if every aggregate merges). */
    default boolean canMerge() {
        return true;
    }

    /** Adds the accumulator {@code other[otherOffset ...]} into {@code acc[offset ...]} (session windows merge). */
    void merge(Object[] acc, int offset, Object[] other, int otherOffset);

    /** The aggregate's current result. */
    Object getValue(Object[] acc, int offset);

    /** For messages and EXPLAIN, e.g. {@code SUM(amount)}. */
    String name();
}
