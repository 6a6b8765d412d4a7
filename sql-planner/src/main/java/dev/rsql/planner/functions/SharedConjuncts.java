package dev.rsql.planner.functions;

import org.apache.calcite.linq4j.function.Deterministic;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The costly conjuncts that several calcs over one source test (the same function call, LIKE on an expression, ...),
 * evaluated at most once per row for all of them. The calcs of the INSERTs reading a source get the same row array
 * for a record, one after the other on one thread, so each conjunct's result is kept for the last row array each
 * thread saw and is evaluated only when a calc first asks for it (a calc whose earlier conjuncts fail never asks).
 * A conjunct's result is whether it is TRUE: it is one of the ANDed tests of a filter, where UNKNOWN rejects the row
 * as FALSE does.
 *
 * <p>Generated code finds its set by name ({@link #named}); the conjuncts are evaluated by a generated
 * {@link Evaluator}, one per thread.
 */
public final class SharedConjuncts {

    private static final Map<String, SharedConjuncts> REGISTERED = new ConcurrentHashMap<>();

    /** Evaluates conjunct {@code k} of a row (generated). */
    public interface Evaluator {
        boolean test(Object[] row, int k);
    }

    private final int count;
    private final Supplier<Evaluator> evaluators;
    private final PerThread<Scratch> scratch;

    private SharedConjuncts(int count, Supplier<Evaluator> evaluators) {
        this.count = count;
        this.evaluators = evaluators;
        this.scratch = new PerThread<>(Scratch::new);
    }

    /** Registers a set of {@code count} conjuncts under {@code name}, evaluated by {@code evaluators}' instances. */
    public static void register(String name, int count, Supplier<Evaluator> evaluators) {
        REGISTERED.put(name, new SharedConjuncts(count, evaluators));
    }

    /** The set registered under {@code name} (called once per generated class, from its static initializer). */
    @Deterministic
    public static SharedConjuncts named(String name) {
        SharedConjuncts set = REGISTERED.get(name);
        if (set == null) {
            throw new IllegalStateException("shared conjuncts " + name + " were not registered");
        }
        return set;
    }

    /** True when conjunct {@code k} is TRUE for {@code row}. */
    public boolean test(Object[] row, int k) {
        Scratch s = scratch.get();
        if (s.row != row) {
            s.load(row);
        }
        if (s.decided[k] == s.stamp) {
            return s.results[k];
        }
        boolean result = s.evaluator.test(row, k);
        s.results[k] = result;
        s.decided[k] = s.stamp;
        return result;
    }

    /** One thread's results for the last row it tested. */
    private final class Scratch {
        final Evaluator evaluator = evaluators.get();
        final int[] decided = new int[count];
        final boolean[] results = new boolean[count];
        Object[] row;
        int stamp;

        void load(Object[] r) {
            row = r;
            if (++stamp == 0) { // wrapped: forget old marks rather than mistake them for new ones
                Arrays.fill(decided, 0);
                stamp = 1;
            }
        }
    }
}
