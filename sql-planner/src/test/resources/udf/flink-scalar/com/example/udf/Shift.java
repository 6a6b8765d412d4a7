package com.example.udf;

import org.apache.flink.table.functions.ScalarFunction;

import java.math.BigDecimal;
import java.sql.Timestamp;

/** Overloads on primitive, boxed, decimal and time types, and varargs. */
public class Shift extends ScalarFunction {

    public int eval(int n) {
        return n + 1;
    }

    public long eval(long n) {
        return n + 1000;
    }

    public BigDecimal eval(BigDecimal d) {
        return d == null ? null : d.add(BigDecimal.ONE);
    }

    public Timestamp eval(Timestamp ts, int hours) {
        return ts == null ? null : new Timestamp(ts.getTime() + hours * 3_600_000L);
    }

    public String eval(String first, String... rest) {
        StringBuilder sb = new StringBuilder(first);
        for (String r : rest) {
            sb.append('+').append(r);
        }
        return sb.toString();
    }
}
