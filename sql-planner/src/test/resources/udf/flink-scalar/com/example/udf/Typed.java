package com.example.udf;

import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.DataTypes;

/** Returns Object; Blink's getResultType says it is a BIGINT (or VARCHAR when the second argument is 'text'). */
public class Typed extends ScalarFunction {

    public Object eval(Integer n, String kind) {
        return "text".equals(kind) ? "n=" + n : (Object) (n == null ? null : n * 2L);
    }

    @Override
    public DataType getResultType(Object[] arguments, Class[] argTypes) {
        return "text".equals(arguments[1]) ? DataTypes.STRING : DataTypes.LONG;
    }

    @Override
    public boolean isDeterministic() {
        return false;
    }
}
