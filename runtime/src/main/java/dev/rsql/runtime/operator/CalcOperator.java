package dev.rsql.runtime.operator;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.graph.CalcNode;
import dev.rsql.runtime.graph.FunctionException;

import java.util.Objects;

/**
 * Runs a compiled filter + projection; keeps the row kind, so it works on changelogs too. When the node splits
 * updates, a -U that passes is held until the next row: if that is its +U (same update key) and passes too, both go
 * on; if not, the -U leaves as a -D. A +U whose -U was not held leaves as a +I. Producers emit the two halves of an
 * update one right after the other, so holding one row is enough; when rows of other keys come between (from other
 * upstream tasks), the update still arrives, as a delete and an insert.
 */
public final class CalcOperator implements Operator {

    private final CalcFunction function;
    private final Output output;
    private final boolean splitsUpdates;
    private final int[] updateKey;
    private OperatorContext context;
    private Row heldBefore;
    private Object[] heldInput;

    public CalcOperator(CalcNode node, Output output) {
        this.function = node.newFunction();
        this.output = output;
        this.splitsUpdates = node.splitsUpdates();
        this.updateKey = node.updateKey();
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
        if (!splitsUpdates) {
            if (out != null) {
                output.emit(row.withFields(out));
            }
            return;
        }
        if (row.kind() == RowKind.UPDATE_AFTER) {
            if (heldBefore != null && !sameKey(heldInput, row.fields())) {
                releaseHeld();
            }
            Row before = heldBefore;
            heldBefore = null;
            heldInput = null;
            if (before == null) {
                if (out != null) {
                    output.emit(new Row(RowKind.INSERT, out));
                }
            } else if (out != null) {
                output.emit(before);
                output.emit(row.withFields(out));
            } else {
                output.emit(before.withKind(RowKind.DELETE));
            }
            return;
        }
        releaseHeld();
        if (out != null) {
            if (row.kind() == RowKind.UPDATE_BEFORE && updateKey.length > 0) {
                heldBefore = row.withFields(out);
                heldInput = row.fields();
            } else if (row.kind() == RowKind.UPDATE_BEFORE) {
                output.emit(new Row(RowKind.DELETE, out));
            } else {
                output.emit(row.withFields(out));
            }
        }
    }

    private boolean sameKey(Object[] a, Object[] b) {
        for (int f : updateKey) {
            if (!Objects.deepEquals(a[f], b[f])) {
                return false;
            }
        }
        return true;
    }

    /** A held -U whose +U did not follow: the row left the result. */
    private void releaseHeld() throws Exception {
        if (heldBefore != null) {
            Row before = heldBefore;
            heldBefore = null;
            heldInput = null;
            output.emit(before.withKind(RowKind.DELETE));
        }
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        releaseHeld();
        output.emitWatermark(watermark);
    }

    @Override
    public void endOfInput() throws Exception {
        releaseHeld();
    }

    @Override
    public void flush() throws Exception {
        releaseHeld();
    }

    @Override
    public void close() throws Exception {
        function.close();
    }
}
