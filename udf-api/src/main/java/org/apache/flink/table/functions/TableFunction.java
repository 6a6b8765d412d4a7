package org.apache.flink.table.functions;

import org.apache.flink.table.types.DataType;
import org.apache.flink.util.Collector;

/**
 * A user-defined table function: public {@code eval} methods call {@link #collect} zero or more times per call; used
 * as {@code LATERAL TABLE(f(...)) AS T(a, b)}. {@code T} is an atomic type (one column), a {@code TupleN} (N
 * columns) or {@code Row} (columns declared by {@link #getResultType} or {@code @FunctionHint}).
 *
 * @param <T> the type of the rows the function emits
 */
public abstract class TableFunction<T> extends UserDefinedFunction {

    private static final long serialVersionUID = 1L;

    /** Where {@link #collect} sends rows; set by the engine. */
    protected transient Collector<T> collector;

    /** Internal: set by the engine before the first call. */
    public final void setCollector(Collector<T> collector) {
        this.collector = collector;
    }

    /** Emits one output row. */
    protected final void collect(T row) {
        collector.collect(row);
    }

    /**
     * The SQL type of the rows for a call (Blink: {@code DataTypes.createRowType(...)} when {@code T} is
     * {@code Row}), or null to take it from {@code T}. {@code arguments} holds the values of literal arguments.
     */
    public DataType getResultType(Object[] arguments, Class[] argTypes) {
        return null;
    }

    /** The SQL parameter types of an {@code eval} signature, or null to take them from the signature. */
    public DataType[] getParameterTypes(Class[] signature) {
        return null;
    }
}
