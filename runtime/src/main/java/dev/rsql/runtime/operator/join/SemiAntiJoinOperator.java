package dev.rsql.runtime.operator.join;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.graph.SemiAntiJoinNode;
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
 * Runs a {@link SemiAntiJoinNode}. Per join key, each side's live rows are kept as one state entry per distinct row
 * (the row's bytes are the namespace), so that a change touches one entry: a right row holds its multiplicity, a left
 * row its multiplicity and its number of matches on the right (counted with multiplicity). A left row is visible
 * (emitted) while it has a match (semi) or none (anti); a right change moves the match count of each left row of its
 * key it matches, and a left row whose count crosses between 0 and 1 is inserted or deleted, once per copy. A row
 * with a NULL key never matches: such a left row is forwarded by an anti join and dropped by a semi join, without
 * state. With a state TTL, a key untouched for that long is forgotten without output, as in Flink.
 */
public final class SemiAntiJoinOperator implements Operator {

    private static final DataType COUNT = DataType.of(DataType.Kind.BIGINT).notNull();

    private final SemiAntiJoinNode node;
    private final Output output;
    private final int keyCount;
    private final int leftArity;
    private final int rightArity;
    private final boolean anti;
    private final RowSerializer keySerializer;
    private final RowSerializer leftSerializer;
    private final RowSerializer rightSerializer;
    private final Object[] joined;
    private CalcFunction condition;
    /** Per key and left row: {multiplicity, matches}. */
    private KeyedValueState<Object[]> lefts;
    /** Per key and right row: {multiplicity}. */
    private KeyedValueState<Object[]> rights;
    private final KeyTtl ttl;

    public SemiAntiJoinOperator(SemiAntiJoinNode node, Output output) {
        this.node = node;
        this.output = output;
        this.keyCount = node.keyCount();
        this.leftArity = node.leftType().size();
        this.rightArity = node.rightType().size();
        this.anti = node.anti();
        int[] keyFields = new int[keyCount];
        for (int i = 0; i < keyCount; i++) {
            keyFields[i] = 1 + i;
        }
        this.keySerializer = RowSerializer.forKeys(node.input().outputType(), keyFields);
        this.leftSerializer = RowSerializer.of(node.leftType());
        this.rightSerializer = RowSerializer.of(node.rightType());
        this.ttl = new KeyTtl(node.stateTtlMillis());
        this.joined = new Object[leftArity + rightArity];
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        condition = node.newCondition();
        if (condition != null) {
            condition.open(context);
        }
        lefts = context.stateBackend().valueState(node.id(), "left", new RowSerializer(List.of(COUNT, COUNT)));
        rights = context.stateBackend().valueState(node.id(), "right", new RowSerializer(List.of(COUNT)));
        ttl.open(context, node.id());
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        boolean left = ((Number) in[0]).intValue() == 0;
        int from = 1 + keyCount + (left ? 0 : leftArity);
        Object[] own = Arrays.copyOfRange(in, from, from + (left ? leftArity : rightArity));
        boolean accumulate = row.kind().isAccumulate();
        Object[] key = Arrays.copyOfRange(in, 1, 1 + keyCount);
        for (Object k : key) {
            if (k == null) {
                if (left && anti) {
                    output.emit(new Row(accumulate ? RowKind.INSERT : RowKind.DELETE, own));
                }
                return;
            }
        }
        byte[] keyBytes = keySerializer.serialize(key);
        long now = System.currentTimeMillis();
        ttl.expireIfIdle(keyBytes, now, this::forget);
        if (left) {
            processLeft(keyBytes, own, accumulate);
        } else {
            processRight(keyBytes, own, accumulate);
        }
        ttl.touch(keyBytes, now);
    }

    /** A left row: stored with its matches counted over the key's right rows, emitted if it is visible. */
    private void processLeft(byte[] keyBytes, Object[] own, boolean accumulate) throws Exception {
        byte[] rowBytes = leftSerializer.serialize(own);
        Object[] stored = lefts.get(keyBytes, rowBytes);
        long copies = stored == null ? 0 : (Long) stored[0];
        long matches;
        if (stored != null) {
            matches = (Long) stored[1];
        } else if (accumulate) {
            matches = 0;
            try (CloseableIterator<StateEntry<Object[]>> it = rights.entries(keyBytes)) {
                while (it.hasNext()) {
                    StateEntry<Object[]> r = it.next();
                    if (matches(own, rightSerializer.deserialize(r.namespace()))) {
                        matches += (Long) r.value()[0];
                    }
                }
            }
        } else {
            return;  // taking back a row that is not there (expired): nothing to do
        }
        copies += accumulate ? 1 : -1;
        if (copies == 0) {
            lefts.remove(keyBytes, rowBytes);
        } else {
            lefts.put(keyBytes, rowBytes, new Object[] {copies, matches});
        }
        if (visible(matches)) {
            output.emit(new Row(accumulate ? RowKind.INSERT : RowKind.DELETE, own));
        }
    }

    /**
     * A right row: its multiplicity changed by one, and the match count of every left row of the key it matches with
     * it; left rows that become visible are inserted, those that stop being visible deleted.
     */
    private void processRight(byte[] keyBytes, Object[] own, boolean accumulate) throws Exception {
        byte[] rowBytes = rightSerializer.serialize(own);
        Object[] stored = rights.get(keyBytes, rowBytes);
        long copies = stored == null ? 0 : (Long) stored[0];
        if (!accumulate && copies == 0) {
            return;  // expired or never seen
        }
        copies += accumulate ? 1 : -1;
        if (copies == 0) {
            rights.remove(keyBytes, rowBytes);
        } else {
            rights.put(keyBytes, rowBytes, new Object[] {copies});
        }
        long delta = accumulate ? 1 : -1;
        List<StateEntry<Object[]>> changed = new ArrayList<>();
        try (CloseableIterator<StateEntry<Object[]>> it = lefts.entries(keyBytes)) {
            while (it.hasNext()) {
                StateEntry<Object[]> l = it.next();
                if (matches(leftSerializer.deserialize(l.namespace()), own)) {
                    changed.add(l);
                }
            }
        }
        for (StateEntry<Object[]> l : changed) {
            long lCopies = (Long) l.value()[0];
            long before = (Long) l.value()[1];
            long after = before + delta;
            lefts.put(keyBytes, l.namespace(), new Object[] {lCopies, after});
            if (visible(before) != visible(after)) {
                RowKind kind = visible(after) ? RowKind.INSERT : RowKind.DELETE;
                Object[] leftRow = leftSerializer.deserialize(l.namespace());
                for (long i = 0; i < lCopies; i++) {
                    output.emit(new Row(kind, leftRow));
                }
            }
        }
    }

    private boolean visible(long matches) {
        return anti ? matches == 0 : matches > 0;
    }

    private boolean matches(Object[] left, Object[] right) {
        if (condition == null) {
            return true;
        }
        System.arraycopy(left, 0, joined, 0, leftArity);
        System.arraycopy(right, 0, joined, leftArity, rightArity);
        return condition.apply(joined) != null;
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
