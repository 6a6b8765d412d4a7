package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.aggregate.Accumulators;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.WindowAggregateNode;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The result rows of a window aggregation: the group key, one value per aggregate, then window start, end and time
 * (end - 1 ms). A result that changes after it was emitted goes out as -U/+U; one taken back as -D.
 */
final class WindowResults {

    private final Output output;
    private final RowSerializer keySerializer;
    private final Accumulators accumulators;

    /** The node's aggregates, opened; checks they can take rows back if the input has updates. */
    static Accumulators openAccumulators(WindowAggregateNode node, OperatorContext context) throws Exception {
        Accumulators accumulators = new Accumulators(node.aggregates());
        accumulators.open(context);
        if (node.input().producesUpdates() && !accumulators.canRetract()) {
            throw new IllegalStateException("window aggregation " + node.id() + " reads updates but not all its "
                    + "aggregates can take rows back");
        }
        return accumulators;
    }

    /** How the values of a result are stored (what was emitted, to tell a changed result). */
    static DataType valuesType(WindowAggregateNode node) {
        int keys = node.groupFields().length;
        int aggregates = node.aggregates().size();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < aggregates; i++) {
            names.add("a" + i);
        }
        return DataType.row(names, node.outputType().types().subList(keys, keys + aggregates));
    }

    /** The accumulators as one nested row (a field of a stored window). */
    static DataType accumulatorsType(Accumulators accumulators) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < accumulators.types().size(); i++) {
            names.add("acc" + i);
        }
        return DataType.row(names, accumulators.types());
    }

    static LateRows lateRows(WindowAggregateNode node, OperatorContext context) throws Exception {
        return new LateRows(node.id(), node.input().outputType(), node.lateDataTable(),
                node.lateDataTable() == null ? null : context.sideOutput(node.lateDataTable()));
    }

    WindowResults(Output output, RowSerializer keySerializer, Accumulators accumulators) {
        this.output = output;
        this.keySerializer = keySerializer;
        this.accumulators = accumulators;
    }

    /**
     * Emits the window's result from its accumulators unless it equals {@code previous} (what
     * was emitted before, or null); returns the values emitted, to pass as {@code previous} next time.
     */
    Object[] emit(byte[] keyBytes, Object[] acc, Object[] previous, long start, long end) throws Exception {
        Object[] values = new Object[accumulators.size()];
        accumulators.values(acc, values, 0);
        if (previous == null) {
            output.emit(new Row(RowKind.INSERT, row(keyBytes, values, start, end)));
        } else if (!Arrays.deepEquals(previous, values)) {
            output.emit(new Row(RowKind.UPDATE_BEFORE, row(keyBytes, previous, start, end)));
            output.emit(new Row(RowKind.UPDATE_AFTER, row(keyBytes, values, start, end)));
        }
        return values;
    }

    /** Emits the result of a window that closed for good, of a key given by its fields. */
    void emit(Object[] key, Object[] acc, long start, long end) throws Exception {
        Object[] out = new Object[key.length + accumulators.size() + 3];
        System.arraycopy(key, 0, out, 0, key.length);
        accumulators.values(acc, out, key.length);
        setWindow(out, key.length + accumulators.size(), start, end);
        output.emit(new Row(RowKind.INSERT, out));
    }

    /** Takes back a result emitted before. */
    void retract(byte[] keyBytes, Object[] emitted, long start, long end) throws Exception {
        output.emit(new Row(RowKind.DELETE, row(keyBytes, emitted, start, end)));
    }

    private Object[] row(byte[] keyBytes, Object[] values, long start, long end) {
        Object[] key = keySerializer.deserialize(keyBytes);
        int aggregates = values.length;
        Object[] out = new Object[key.length + aggregates + 3];
        System.arraycopy(key, 0, out, 0, key.length);
        System.arraycopy(values, 0, out, key.length, aggregates);
        setWindow(out, key.length + aggregates, start, end);
        return out;
    }

    private static void setWindow(Object[] out, int at, long start, long end) {
        out[at] = start;
        out[at + 1] = end;
        out[at + 2] = end - 1;
    }
}
