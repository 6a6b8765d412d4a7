package com.example.udaf;

import org.apache.flink.table.functions.AggregateFunction;
import org.apache.flink.table.functions.FunctionContext;

import java.util.ArrayList;
import java.util.List;

/** Weighted average with retract, merge and reset; a private-field accumulator with a list. */
public class WeightedAvg extends AggregateFunction<Double, WeightedAvg.Acc> {

    public static class Acc {
        private long sum;
        private int count;
        private List<String> seen = new ArrayList<>();

        long sum() {
            return sum;
        }
    }

    private double scale = 1;

    @Override
    public void open(FunctionContext context) {
        scale = Double.parseDouble(context.getJobParameter("avg.scale", "1"));
    }

    @Override
    public Acc createAccumulator() {
        return new Acc();
    }

    @Override
    public Double getValue(Acc acc) {
        return acc.count == 0 ? null : scale * acc.sum / acc.count;
    }

    public void accumulate(Acc acc, long value, int weight) {
        acc.sum += value * weight;
        acc.count += weight;
        acc.seen.add(value + "x" + weight);
    }

    public void retract(Acc acc, long value, int weight) {
        acc.sum -= value * weight;
        acc.count -= weight;
        acc.seen.remove(value + "x" + weight);
    }

    public void merge(Acc acc, Iterable<Acc> others) {
        for (Acc o : others) {
            acc.sum += o.sum;
            acc.count += o.count;
            acc.seen.addAll(o.seen);
        }
    }

    public void resetAccumulator(Acc acc) {
        acc.sum = 0;
        acc.count = 0;
        acc.seen.clear();
    }

    /** For the test: what the accumulator saw. */
    public static List<String> seen(Object acc) {
        return ((Acc) acc).seen;
    }

    public static long sum(Object acc) {
        return ((Acc) acc).sum();
    }
}
