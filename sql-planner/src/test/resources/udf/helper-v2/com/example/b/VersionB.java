package com.example.b;

import com.example.helper.Version;
import org.apache.flink.table.functions.ScalarFunction;

public class VersionB extends ScalarFunction {

    public String eval(String s) {
        return s + ":B" + Version.get();
    }
}
