package dev.rsql.planner.functions;

import dev.rsql.runtime.graph.FunctionContext;

import java.util.function.Consumer;

/** Generated: calls one table function with argument values (internal representation). One instance per task. */
public interface TableInvoker {

    void open(FunctionContext context) throws Exception;

    /** Calls the function; everything it emits goes to {@code out} before this returns. */
    void invoke(Object[] args, Consumer<Object> out);

    void close() throws Exception;
}
