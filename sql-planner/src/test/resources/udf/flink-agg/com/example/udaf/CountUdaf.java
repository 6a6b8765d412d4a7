package com.example.udaf;

import org.apache.flink.table.functions.AggregateFunction;

/** The Blink documentation's COUNT UDAF, with retract. */
public class CountUdaf extends AggregateFunction<Long, CountUdaf.CountAccum> {

    public static class CountAccum {
        public long total;
    }

    @Override
    public CountAccum createAccumulator() {
        CountAccum acc = new CountAccum();
        acc.total = 0;
        return acc;
    }

    @Override
    public Long getValue(CountAccum accumulator) {
        return accumulator.total;
    }

    public void accumulate(CountAccum accumulator, Object iValue) {
        accumulator.total++;
    }

    public void retract(CountAccum accumulator, Object iValue) {
        accumulator.total--;
    }

    public void merge(CountAccum accumulator, Iterable<CountAccum> its) {
        for (CountAccum other : its) {
            accumulator.total += other.total;
        }
    }
}
