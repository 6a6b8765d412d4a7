package dev.rsql.runtime.operator;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.UpsertMaterializeNode;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowListSerializer;
import dev.rsql.runtime.state.RowSerializer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs an {@link UpsertMaterializeNode}: per key, the list of rows currently in the result, in keyed state. An
 * accumulating row is appended and emitted; a retraction removes the first equal row, emitting -D when the list is
 * empty and the new last row as +U when the removed row was the last. A retraction of a row that is not there (its
 * state expired) is ignored. Rows are compared whole, so the fields must be deterministic.
 */
public final class UpsertMaterializeOperator implements Operator {

    private final UpsertMaterializeNode node;
    private final Output output;
    private final int[] keyFields;
    private final RowSerializer keySerializer;
    private KeyedValueState<List<Object[]>> state;

    public UpsertMaterializeOperator(UpsertMaterializeNode node, Output output) {
        this.node = node;
        this.output = output;
        this.keyFields = node.keyFields();
        this.keySerializer = RowSerializer.forKeys(node.outputType(), keyFields);
    }

    @Override
    public void open(OperatorContext context) {
        state = context.stateBackend().valueState(node.id(), "rows",
                new RowListSerializer(RowSerializer.of(node.outputType())));
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        Object[] key = new Object[keyFields.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = in[keyFields[i]];
        }
        byte[] keyBytes = keySerializer.serialize(key);
        List<Object[]> rows = state.get(keyBytes, Namespaces.EMPTY);
        if (row.kind().isAccumulate()) {
            if (rows == null) {
                rows = new ArrayList<>(1);
            }
            rows.add(in);
            state.put(keyBytes, Namespaces.EMPTY, rows);
            output.emit(new Row(rows.size() == 1 ? RowKind.INSERT : RowKind.UPDATE_AFTER, in));
            return;
        }
        if (rows == null) {
            return;
        }
        int found = -1;
        for (int i = 0; i < rows.size() && found < 0; i++) {
            if (Arrays.deepEquals(rows.get(i), in)) {
                found = i;
            }
        }
        if (found < 0) {
            return;
        }
        boolean wasLast = found == rows.size() - 1;
        rows.remove(found);
        if (rows.isEmpty()) {
            state.remove(keyBytes, Namespaces.EMPTY);
            output.emit(new Row(RowKind.DELETE, in));
            return;
        }
        state.put(keyBytes, Namespaces.EMPTY, rows);
        if (wasLast) {
            output.emit(new Row(RowKind.UPDATE_AFTER, rows.get(rows.size() - 1)));
        }
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        output.emitWatermark(watermark);
    }
}
