package dev.rsql.runtime.operator;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.CorrelateFunction;
import dev.rsql.runtime.graph.CorrelateNode;
import dev.rsql.runtime.graph.FunctionException;

import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs a {@link CorrelateNode}: calls the table function for every input row and emits the input fields followed by
 * each function row, keeping the input's row kind; a left correlate pads input rows without function output.
 */
public final class CorrelateOperator implements Operator, Consumer<Object> {

    private final CorrelateFunction function;
    private final Function<Object, Object[]> converter;
    private final boolean left;
    private final int functionColumns;
    private final Output output;
    private OperatorContext context;

    // The row being processed, for accept(); one thread per task.
    private Row current;
    private int produced;
    private Exception emitFailure;

    public CorrelateOperator(CorrelateNode node, Output output) {
        this.function = node.newFunction();
        this.converter = node.rowConverter();
        this.left = node.isLeft();
        this.functionColumns = node.functionColumns();
        this.output = output;
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        this.context = context;
        function.open(context);
    }

    @Override
    public void process(Row row) throws Exception {
        current = row;
        produced = 0;
        emitFailure = null;
        try {
            function.apply(row.fields(), this);
        } catch (FunctionException e) {
            if (context.skipFailedRow(row, e)) {
                return;
            }
            throw e;
        } finally {
            current = null;
        }
        if (emitFailure != null) {
            throw emitFailure;
        }
        if (produced == 0 && left) {
            emit(row, new Object[functionColumns]);
        }
    }

    /** One value produced by the table function. */
    @Override
    public void accept(Object value) {
        if (current == null) {
            throw new IllegalStateException("a table function emitted a row outside of its call");
        }
        Object[] columns = converter.apply(value);
        if (columns == null || emitFailure != null) {
            return;
        }
        produced++;
        try {
            emit(current, columns);
        } catch (Exception e) {
            // Downstream failed (e.g. a sink); remember it and rethrow once the function returns.
            emitFailure = e;
        }
    }

    private void emit(Row input, Object[] columns) throws Exception {
        Object[] in = input.fields();
        Object[] out = new Object[in.length + functionColumns];
        System.arraycopy(in, 0, out, 0, in.length);
        System.arraycopy(columns, 0, out, in.length, Math.min(columns.length, functionColumns));
        output.emit(input.withFields(out));
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
