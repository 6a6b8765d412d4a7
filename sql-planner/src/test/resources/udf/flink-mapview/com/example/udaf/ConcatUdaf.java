package com.example.udaf;

import org.apache.flink.table.api.dataview.ListView;
import org.apache.flink.table.functions.AggregateFunction;

/** The strings in arrival order, joined by commas, kept in a ListView (a retraction removes the first copy). */
public class ConcatUdaf extends AggregateFunction<String, ConcatUdaf.Acc> {

    public static class Acc {
        public ListView<String> values = new ListView<>();
    }

    @Override
    public Acc createAccumulator() {
        return new Acc();
    }

    public void accumulate(Acc acc, String s) throws Exception {
        if (s != null) {
            acc.values.add(s);
        }
    }

    public void retract(Acc acc, String s) throws Exception {
        if (s != null) {
            acc.values.remove(s);
        }
    }

    @Override
    public String getValue(Acc acc) {
        StringBuilder out = new StringBuilder();
        try {
            for (String s : acc.values.get()) {
                out.append(out.length() == 0 ? "" : ",").append(s);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return out.length() == 0 ? null : out.toString();
    }
}
