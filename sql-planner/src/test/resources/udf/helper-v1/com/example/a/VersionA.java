package com.example.a;

import com.example.helper.Version;
import org.apache.flink.table.functions.ScalarFunction;

public class VersionA extends ScalarFunction {

    public String eval(String s) {
        return s + ":A" + Version.get();
    }
}
