package dev.rsql.runtime.graph;

/**
 * Picks, for a row, the rules of a {@link RuleSetNode} that may pass it: a rule left out is one whose filter is
 * certainly false for the row (a value it requires is not there), so only the others need to run. One instance per
 * task; never shared between threads.
 */
public interface RuleSelector {

    /**
     * The candidate rules for {@code row} as a bit set: bit {@code i % 64} of word {@code i / 64} set for rule
     * {@code i}. The array belongs to the selector and is overwritten by the next call.
     */
    long[] candidates(Object[] row);
}
