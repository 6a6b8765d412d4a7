package com.example.udtf;

import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.FunctionHint;
import org.apache.flink.table.functions.TableFunction;
import org.apache.flink.types.Row;

/** Flink 1.11+ style: output declared with @FunctionHint; emits nothing for an empty string. */
@FunctionHint(output = @DataTypeHint("ROW<word STRING, len INT>"))
public class Words extends TableFunction<Row> {

    public void eval(String text) {
        if (text == null) {
            return;
        }
        for (String w : text.split(" ")) {
            if (!w.isEmpty()) {
                collect(Row.of(w, w.length()));
            }
        }
    }
}
