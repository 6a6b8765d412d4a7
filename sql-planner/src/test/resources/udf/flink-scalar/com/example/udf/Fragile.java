package com.example.udf;

import org.apache.flink.table.functions.ScalarFunction;

/** Fails on the value 3. */
public class Fragile extends ScalarFunction {

    public Integer eval(Integer n) {
        if (n != null && n == 3) {
            throw new IllegalStateException("cannot handle " + n);
        }
        return n == null ? null : n * 10;
    }
}
