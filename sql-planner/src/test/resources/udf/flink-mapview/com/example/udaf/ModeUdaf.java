package com.example.udaf;

import org.apache.flink.table.api.dataview.MapView;
import org.apache.flink.table.functions.AggregateFunction;

import java.util.Map;

/** The most frequent string (the smallest on a tie) and the number of distinct strings, counted in a MapView. */
public class ModeUdaf extends AggregateFunction<String, ModeUdaf.Acc> {

    public static class Acc {
        public MapView<String, Long> counts = new MapView<>();
        public long distinct;
    }

    @Override
    public Acc createAccumulator() {
        return new Acc();
    }

    public void accumulate(Acc acc, String s) throws Exception {
        if (s == null) {
            return;
        }
        Long n = acc.counts.get(s);
        if (n == null) {
            acc.distinct++;
        }
        acc.counts.put(s, n == null ? 1L : n + 1);
    }

    public void retract(Acc acc, String s) throws Exception {
        Long n = s == null ? null : acc.counts.get(s);
        if (n == null) {
            return;
        }
        if (n == 1) {
            acc.counts.remove(s);
            acc.distinct--;
        } else {
            acc.counts.put(s, n - 1);
        }
    }

    @Override
    public String getValue(Acc acc) {
        String mode = null;
        long best = 0;
        try {
            for (Map.Entry<String, Long> e : acc.counts.entries()) {
                if (e.getValue() > best || e.getValue() == best && e.getKey().compareTo(mode) < 0) {
                    mode = e.getKey();
                    best = e.getValue();
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return mode == null ? null : mode + "x" + best + "/" + acc.distinct;
    }
}
