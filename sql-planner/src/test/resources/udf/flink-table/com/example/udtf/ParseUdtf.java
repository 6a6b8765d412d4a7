package com.example.udtf;

import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.table.functions.TableFunction;

/** The Blink documentation's Tuple3 UDTF: 'a,2,3' gives one row (a, 2, 3). */
public class ParseUdtf extends TableFunction<Tuple3<String, Long, Integer>> {

    public void eval(String str) {
        if (str == null) {
            return;
        }
        for (String part : str.split(";")) {
            String[] split = part.split(",");
            collect(Tuple3.of(split[0], Long.parseLong(split[1]), Integer.parseInt(split[2])));
        }
    }
}
