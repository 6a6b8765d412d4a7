package dev.rsql.sdk.dsl;

import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A user aggregation: an accumulator created per key (and window), each element added to it, and the result read from
 * it. Accumulators are kept in the engine's keyed state as rows (their type is mapped like any element, see
 * {@link RowMapping}), so they survive checkpoints and move with their keys. Session windows merge accumulators:
 * implement {@link #merge} for them. Implementations are shared by all tasks: keep them stateless.
 *
 * @param <T> the elements
 * @param <A> the accumulator
 * @param <V> the result
 */
public interface Aggregator<T, A, V> {

    A createAccumulator();

    /** The accumulator with {@code value} added (it may be {@code accumulator} itself, changed). */
    A add(T value, A accumulator);

    /** Two accumulators as one (when session windows merge). */
    default A merge(A a, A b) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot merge accumulators");
    }

    /**
     * Whether {@link #merge} is implemented: a session window refuses an aggregator that cannot merge when the job is
     * built. By default, whether the class overrides it.
     */
    default boolean canMerge() {
        try {
            return getClass().getMethod("merge", Object.class, Object.class).getDeclaringClass() != Aggregator.class;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    V result(A accumulator);

    /** An aggregator whose result is its accumulator. */
    static <T, A> Aggregator<T, A, A> of(Supplier<A> initializer, BiFunction<T, A, A> adder) {
        return of(initializer, adder, null, Function.identity());
    }

    /** An aggregator from its parts; {@code merger} may be null when no session window uses it. */
    static <T, A, V> Aggregator<T, A, V> of(Supplier<A> initializer, BiFunction<T, A, A> adder,
                                            BinaryOperator<A> merger, Function<A, V> result) {
        return new Aggregator<>() {
            @Override
            public A createAccumulator() {
                return initializer.get();
            }

            @Override
            public A add(T value, A accumulator) {
                return adder.apply(value, accumulator);
            }

            @Override
            public A merge(A a, A b) {
                if (merger == null) {
                    return Aggregator.super.merge(a, b);
                }
                return merger.apply(a, b);
            }

            @Override
            public boolean canMerge() {
                return merger != null;
            }

            @Override
            public V result(A accumulator) {
                return result.apply(accumulator);
            }
        };
    }
}
