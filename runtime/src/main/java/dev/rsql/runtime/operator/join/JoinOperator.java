package dev.rsql.runtime.operator.join;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.graph.JoinNode;
import dev.rsql.runtime.operator.KeyTtl;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowListSerializer;
import dev.rsql.runtime.state.RowSerializer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs a {@link JoinNode}. Per join key, each side's live rows are a list in keyed state (a retraction removes one
 * equal row). A row arriving on one side is paired with the other side's rows of its key that satisfy the residual
 * condition: +I of each joined row, or -D when the row is retracted. For an outer side, a row without a match is
 * emitted padded with NULLs; when the other side's first match for it arrives the padded row is deleted, and when its
 * last match goes it is inserted again (the number of matches is counted afresh over the key's rows, which stay few
 * per key in the joins this serves). Rows with a NULL key never match. With a state TTL, a key untouched for that
 * long is forgotten without output, as in Flink.
 */
public final class JoinOperator implements Operator {

    private final JoinNode node;
    private final Output output;
    private final int keyCount;
    private final int leftArity;
    private final int rightArity;
    private final RowSerializer keySerializer;
    private CalcFunction condition;
    private KeyedValueState<List<Object[]>> lefts;
    private KeyedValueState<List<Object[]>> rights;
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
        this.ttl = new KeyTtl(node.stateTtlMillis());
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        condition = node.newCondition();
        if (condition != null) {
            condition.open(context);
        }
        lefts = context.stateBackend().valueState(node.id(), "left",
                new RowListSerializer(RowSerializer.of(node.leftType())));
        rights = context.stateBackend().valueState(node.id(), "right",
                new RowListSerializer(RowSerializer.of(node.rightType())));
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
        KeyedValueState<List<Object[]>> ownState = left ? lefts : rights;
        List<Object[]> owns = ownState.get(keyBytes, Namespaces.EMPTY);
        if (owns == null) {
            owns = new ArrayList<>(1);
        }
        List<Object[]> others = (left ? rights : lefts).get(keyBytes, Namespaces.EMPTY);
        if (others == null) {
            others = List.of();
        }
        if (!accumulate) {
            int at = indexOf(owns, own);
            if (at < 0) {
                return;  // taking back a row that is not there (expired): nothing to do
            }
            owns.remove(at);
        }
        boolean matched = false;
        for (Object[] other : others) {
            if (!matches(left, own, other)) {
                continue;
            }
            matched = true;
            // owns does not hold own here: no other match means the other row was (or will be) padded
            boolean otherAlone = otherOuter && countMatches(!left, other, owns) == 0;
            if (accumulate) {
                if (otherAlone) {
                    output.emit(new Row(RowKind.DELETE, padded(other, !left)));
                }
                output.emit(new Row(RowKind.INSERT, joined(left, own, other)));
            } else {
                output.emit(new Row(RowKind.DELETE, joined(left, own, other)));
                if (otherAlone) {
                    output.emit(new Row(RowKind.INSERT, padded(other, !left)));
                }
            }
        }
        if (!matched && ownOuter) {
            output.emit(new Row(accumulate ? RowKind.INSERT : RowKind.DELETE, padded(own, left)));
        }
        if (accumulate) {
            owns.add(own);
        }
        if (owns.isEmpty()) {
            ownState.remove(keyBytes, Namespaces.EMPTY);
        } else {
            ownState.put(keyBytes, Namespaces.EMPTY, owns);
        }
        ttl.touch(keyBytes, now);
    }

    private boolean matches(boolean leftIsOwn, Object[] own, Object[] other) {
        return condition == null || condition.apply(joined(leftIsOwn, own, other)) != null;
    }

    /** How many of {@code rows} (of the side opposite to {@code row}) match {@code row}. */
    private int countMatches(boolean rowIsLeft, Object[] row, List<Object[]> rows) {
        int n = 0;
        for (Object[] r : rows) {
            if (matches(rowIsLeft, row, r)) {
                n++;
            }
        }
        return n;
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

    private static int indexOf(List<Object[]> rows, Object[] row) {
        for (int i = 0; i < rows.size(); i++) {
            if (Arrays.deepEquals(rows.get(i), row)) {
                return i;
            }
        }
        return -1;
    }

    private void forget(byte[] keyBytes) {
        lefts.remove(keyBytes, Namespaces.EMPTY);
        rights.remove(keyBytes, Namespaces.EMPTY);
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
