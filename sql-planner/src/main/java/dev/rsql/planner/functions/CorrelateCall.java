package dev.rsql.planner.functions;

import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.graph.CorrelateFunction;
import dev.rsql.runtime.graph.FunctionContext;

import java.util.function.Consumer;

/** A correlate's function: compiled argument expressions, then the compiled table function invoker. */
final class CorrelateCall implements CorrelateFunction {

    private final CalcFunction arguments;
    private final TableInvoker invoker;

    CorrelateCall(CalcFunction arguments, TableInvoker invoker) {
        this.arguments = arguments;
        this.invoker = invoker;
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        arguments.open(context);
        invoker.open(context);
    }

    @Override
    public void apply(Object[] input, Consumer<Object> out) {
        invoker.invoke(arguments.apply(input), out);
    }

    @Override
    public void close() throws Exception {
        try {
            invoker.close();
        } finally {
            arguments.close();
        }
    }
}
