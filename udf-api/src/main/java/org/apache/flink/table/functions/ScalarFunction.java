package org.apache.flink.table.functions;

import org.apache.flink.table.types.DataType;

/**
 * A user-defined scalar function: one or more public {@code eval} methods (overloads, varargs) map argument values
 * to one value. Parameter and result types are taken from the {@code eval} signatures unless overridden below.
 */
public abstract class ScalarFunction extends UserDefinedFunction {

    private static final long serialVersionUID = 1L;

    /**
     * The SQL result type for a call, or null to take it from the {@code eval} method's return type. {@code arguments}
     * holds the values of literal arguments (null for the others); {@code argTypes} the Java classes of the arguments.
     */
    public DataType getResultType(Object[] arguments, Class[] argTypes) {
        return null;
    }

    /** The SQL parameter types of an {@code eval} signature, or null to take them from the signature. */
    public DataType[] getParameterTypes(Class[] signature) {
        return null;
    }
}
