package dev.rsql.sdk.dsl;

import dev.rsql.runtime.aggregate.AggregateFunction;
import dev.rsql.runtime.types.DataType;

import java.util.List;

/** A user {@link Aggregator} as the runtime's aggregate function: its accumulator's fields are the state's. */
final class AccumulatorFunction<T, A, V> implements AggregateFunction {

    private final Aggregator<T, A, V> aggregator;
    private final RowMapping<T> input;
    private final int inputOffset;
    private final RowMapping<A> accumulator;
    private final RowMapping<V> result;

    /** @param inputOffset where the element's fields start in an input row */
    AccumulatorFunction(Aggregator<T, A, V> aggregator, RowMapping<T> input, int inputOffset,
                        RowMapping<A> accumulator, RowMapping<V> result) {
        this.aggregator = aggregator;
        this.input = input;
        this.inputOffset = inputOffset;
        this.accumulator = accumulator;
        this.result = result;
    }

    @Override
    public List<DataType> accumulatorTypes() {
        return accumulator.rowType().types();
    }

    @Override
    public void createAccumulator(Object[] acc, int offset) {
        accumulator.write(aggregator.createAccumulator(), acc, offset);
    }

    @Override
    public void accumulate(Object[] acc, int offset, Object[] row) {
        A a = aggregator.add(input.read(row, inputOffset), accumulator.read(acc, offset));
        accumulator.write(a, acc, offset);
    }

    @Override
    public void merge(Object[] acc, int offset, Object[] other, int otherOffset) {
        accumulator.write(aggregator.merge(accumulator.read(acc, offset), accumulator.read(other, otherOffset)), acc,
                offset);
    }

    @Override
    public Object getValue(Object[] acc, int offset) {
        Object[] out = new Object[1];
        result.write(aggregator.result(accumulator.read(acc, offset)), out, 0);
        return out[0];
    }

    @Override
    public String name() {
        return "AGGREGATE(" + aggregator.getClass().getSimpleName() + ")";
    }
}
