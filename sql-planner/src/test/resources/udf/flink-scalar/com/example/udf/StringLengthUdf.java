package com.example.udf;

import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.ScalarFunction;

/** The Blink documentation's example UDF, with an open() that reads a job parameter. */
public class StringLengthUdf extends ScalarFunction {

    private long bonus;

    @Override
    public void open(FunctionContext context) {
        bonus = Long.parseLong(context.getJobParameter("udf.bonus", "0"));
    }

    public long eval(String a) {
        return a == null ? 0 : a.length() + bonus;
    }

    public long eval(String b, String c) {
        return eval(b) + eval(c);
    }

    @Override
    public void close() {
    }
}
