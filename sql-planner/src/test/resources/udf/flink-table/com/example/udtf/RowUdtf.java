package com.example.udtf;

import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.TableFunction;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.DataTypes;
import org.apache.flink.types.Row;

import java.sql.Timestamp;

/** Row output declared by Blink's getResultType; the separator comes from a job parameter. */
public class RowUdtf extends TableFunction<Row> {

    private String separator;

    @Override
    public void open(FunctionContext context) {
        separator = context.getJobParameter("udtf.separator", "\\|");
    }

    public void eval(String str, long base) {
        int i = 0;
        for (String s : str.split(separator)) {
            Row row = new Row(3);
            row.setField(0, s);
            row.setField(1, base + i);
            row.setField(2, s.isEmpty() ? null : Timestamp.valueOf("2024-01-0" + (++i) + " 10:00:00"));
            collect(row);
        }
    }

    @Override
    public DataType getResultType(Object[] arguments, Class[] argTypes) {
        return DataTypes.createRowType(DataTypes.STRING, DataTypes.LONG, DataTypes.TIMESTAMP);
    }
}
