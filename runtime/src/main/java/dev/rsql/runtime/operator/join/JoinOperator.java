package dev.rsql.runtime.operator.join;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.graph.JoinNode;
import dev.rsql.runtime.operator.KeyTtl;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs a {@link JoinNode}. Per join key, each side's live rows are kept as one state entry per distinct row (the
 * row's bytes are the namespace) holding its multiplicity and, for an outer side, its number of matches on the other
 * side (counted with multiplicity), as Flink's join record state views: a change reads and writes the entries it
 * concerns, never the key's whole list. A row arriving on one side is paired with the other side's rows of its key
 * that satisfy the residual condition: +I of each joined row, or -D when the row is retracted. For an outer side, a
 * row without a match is emitted padded with NULLs; when the other side's first match for it arrives the padded row
 * is deleted, and when its last match goes it is inserted again. Rows with a NULL key never match. With a state TTL,
 * a key untouched for that long is forgotten without output, as in Flink.
 */
public final class JoinOperator implements Operator {

    private static final DataType COUNT = DataType.of(DataType.Kind.BIGINT).notNull();

    private final JoinNode node;
    private final Output output;
    private final int keyCount;
    private final int leftArity;
    private final int rightArity;
    private final RowSerializer keySerializer;
    private final RowSerializer leftSerializer;
    private final RowSerializer rightSerializer;
    private CalcFunction condition;
    /** Per key and left row: {multiplicity, matches on the right (kept for an outer left side)}. */
    private KeyedValueState<Object[]> lefts;
    /** Per key and right row: {multiplicity, matches on the left (kept for an outer right side)}. */
    private KeyedValueState<Object[]> rights;
    private final KeyTtl ttl;

    public JoinOperator(JoinNode node, Output output) {
        this.node = node;
        this.output = output;
        this.keyCount = node.keyCount();
        this.leftArity = node.leftType().size();
        this.rightArity = node.rightType().size();
        int[] keyFields = new int[keyCount];
        for (int i = 0; i < keyCount; i++) {
            keyFields[i] = 1 + i;
        }
        this.keySerializer = RowSerializer.forKeys(node.input().outputType(), keyFields);
        this.leftSerializer = RowSerializer.of(node.leftType());
        this.rightSerializer = RowSerializer.of(node.rightType());
        this.ttl = new KeyTtl(node.stateTtlMillis());
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        condition = node.newCondition();
        if (condition != null) {
            condition.open(context);
        }
        RowSerializer counts = new RowSerializer(List.of(COUNT, COUNT));
        lefts = context.stateBackend().valueState(node.id(), "left-rows", counts);
        rights = context.stateBackend().valueState(node.id(), "right-rows", counts);
        ttl.open(context, node.id());
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        boolean left = ((Number) in[0]).intValue() == 0;
        int from = 1 + keyCount + (left ? 0 : leftArity);
        Object[] own = Arrays.copyOfRange(in, from, from + (left ? leftArity : rightArity));
        boolean accumulate = row.kind().isAccumulate();
        boolean ownOuter = left ? node.type().leftOuter() : node.type().rightOuter();
        boolean otherOuter = left ? node.type().rightOuter() : node.type().leftOuter();
        Object[] key = Arrays.copyOfRange(in, 1, 1 + keyCount);
        for (Object k : key) {
            if (k == null) {
                if (ownOuter) {
                    output.emit(new Row(accumulate ? RowKind.INSERT : RowKind.DELETE, padded(own, left)));
                }
                return;
            }
        }
        byte[] keyBytes = keySerializer.serialize(key);
        long now = System.currentTimeMillis();
        ttl.expireIfIdle(keyBytes, now, this::forget);
        KeyedValueState<Object[]> ownState = left ? lefts : rights;
        KeyedValueState<Object[]> otherState = left ? rights : lefts;
        RowSerializer otherSerializer = left ? rightSerializer : leftSerializer;
        byte[] ownBytes = (left ? leftSerializer : rightSerializer).serialize(own);
        Object[] stored = ownState.get(keyBytes, ownBytes);
        if (!accumulate && stored == null) {
            return;  // taking back a row that is not there (expired): nothing to do
        }
        long delta = accumulate ? 1 : -1;
        long matches = 0;
        List<StateEntry<Object[]>> recounted = otherOuter ? new ArrayList<>() : null;
        try (CloseableIterator<StateEntry<Object[]>> it = otherState.entries(keyBytes)) {
            while (it.hasNext()) {
                StateEntry<Object[]> entry = it.next();
                Object[] other = otherSerializer.deserialize(entry.namespace());
                if (!matches(left, own, other)) {
                    continue;
                }
                long copies = (Long) entry.value()[0];
                matches += copies;
                // The other row was padded (or will be) exactly while it has no match.
                boolean otherAlone = otherOuter && (Long) entry.value()[1] + (accumulate ? 0 : delta) == 0;
                for (long c = 0; c < copies; c++) {
                    if (accumulate && otherAlone) {
                        output.emit(new Row(RowKind.DELETE, padded(other, !left)));
                    }
                    output.emit(new Row(accumulate ? RowKind.INSERT : RowKind.DELETE, joined(left, own, other)));
                    if (!accumulate && otherAlone) {
                        output.emit(new Row(RowKind.INSERT, padded(other, !left)));
                    }
                }
                if (otherOuter) {
                    recounted.add(entry);
                }
            }
        }
        if (otherOuter) {
            for (StateEntry<Object[]> e : recounted) {
                otherState.put(keyBytes, e.namespace(), new Object[] {e.value()[0], (Long) e.value()[1] + delta});
            }
        }
        if (matches == 0 && ownOuter) {
            output.emit(new Row(accumulate ? RowKind.INSERT : RowKind.DELETE, padded(own, left)));
        }
        long copies = (stored == null ? 0 : (Long) stored[0]) + delta;
        if (copies == 0) {
            ownState.remove(keyBytes, ownBytes);
        } else {
            ownState.put(keyBytes, ownBytes, new Object[] {copies, ownOuter ? matches : 0L});
        }
        ttl.touch(keyBytes, now);
    }

    private boolean matches(boolean leftIsOwn, Object[] own, Object[] other) {
        return condition == null || condition.apply(joined(leftIsOwn, own, other)) != null;
    }

    private Object[] joined(boolean leftIsOwn, Object[] own, Object[] other) {
        Object[] out = new Object[leftArity + rightArity];
        Object[] l = leftIsOwn ? own : other;
        Object[] r = leftIsOwn ? other : own;
        System.arraycopy(l, 0, out, 0, leftArity);
        System.arraycopy(r, 0, out, leftArity, rightArity);
        return out;
    }

    private Object[] padded(Object[] row, boolean isLeft) {
        Object[] out = new Object[leftArity + rightArity];
        System.arraycopy(row, 0, out, isLeft ? 0 : leftArity, row.length);
        return out;
    }

    private void forget(byte[] keyBytes) {
        lefts.removeAll(keyBytes);
        rights.removeAll(keyBytes);
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        output.emitWatermark(watermark);
    }

    @Override
    public void onProcessingTime(long now) throws Exception {
        ttl.onProcessingTime(now, this::forget);
    }

    @Override
    public void close() throws Exception {
        if (condition != null) {
            condition.close();
        }
    }
}
