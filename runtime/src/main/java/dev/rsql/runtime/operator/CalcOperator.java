package dev.rsql.runtime.operator;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.graph.FunctionException;

/** Runs a compiled filter + projection; keeps the row kind, so it works on changelogs too. */
public final class CalcOperator implements Operator {

    private final CalcFunction function;
    private final Output output;
    private OperatorContext context;

    public CalcOperator(CalcFunction function, Output output) {
        this.function = function;
        this.output = output;
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        this.context = context;
        function.open(context);
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] out;
        try {
            out = function.apply(row.fields());
        } catch (FunctionException e) {
            if (context.skipFailedRow(row, e)) {
                return;
            }
            throw e;
        }
        if (out != null) {
            output.emit(row.withFields(out));
        }
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        output.emitWatermark(watermark);
    }

    @Override
    public void close() throws Exception {
        function.close();
    }
}
