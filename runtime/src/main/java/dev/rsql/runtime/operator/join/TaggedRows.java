package dev.rsql.runtime.operator.join;

import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.graph.TaggedJoinNode;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;

import java.util.Arrays;

/**
 * The tagged rows of a {@link TaggedJoinNode} as its operator sees them: which side a row is from, its own fields,
 * its key, and the joined or NULL-padded output rows; plus ids for storing rows one state entry each.
 */
final class TaggedRows {

    private final int keyCount;
    private final int leftArity;
    private final int rightArity;
    private final RowSerializer keySerializer;
    private final CalcFunction condition;
    /** Starts at the clock, scaled, so that ids made after a restore do not repeat ids in the restored state. */
    private long nextSeq = System.currentTimeMillis() * 1_000_000L;

    TaggedRows(TaggedJoinNode node) {
        this.keyCount = node.keyCount();
        this.leftArity = node.leftType().size();
        this.rightArity = node.rightType().size();
        int[] keyFields = new int[keyCount];
        for (int i = 0; i < keyCount; i++) {
            keyFields[i] = 1 + i;
        }
        this.keySerializer = RowSerializer.forKeys(node.input().outputType(), keyFields);
        this.condition = node.newCondition();
    }

    void open(OperatorContext context) throws Exception {
        if (condition != null) {
            condition.open(context);
        }
    }

    void close() throws Exception {
        if (condition != null) {
            condition.close();
        }
    }

    static boolean isLeft(Object[] tagged) {
        return ((Number) tagged[0]).intValue() == 0;
    }

    /** The fields of the side the tagged row is from. */
    Object[] own(Object[] tagged) {
        boolean left = isLeft(tagged);
        int from = 1 + keyCount + (left ? 0 : leftArity);
        return Arrays.copyOfRange(tagged, from, from + (left ? leftArity : rightArity));
    }

    /** The serialized key, or null when a key field is NULL (such rows never match). */
    byte[] key(Object[] tagged) {
        Object[] key = Arrays.copyOfRange(tagged, 1, 1 + keyCount);
        for (Object k : key) {
            if (k == null) {
                return null;
            }
        }
        return keySerializer.serialize(key);
    }

    /** Whether a pair satisfies the residual condition. */
    boolean matches(Object[] left, Object[] right) {
        return condition == null || condition.apply(joined(left, right)) != null;
    }

    Object[] joined(Object[] left, Object[] right) {
        Object[] out = new Object[leftArity + rightArity];
        System.arraycopy(left, 0, out, 0, leftArity);
        System.arraycopy(right, 0, out, leftArity, rightArity);
        return out;
    }

    Object[] padded(Object[] row, boolean isLeft) {
        Object[] out = new Object[leftArity + rightArity];
        System.arraycopy(row, 0, out, isLeft ? 0 : leftArity, row.length);
        return out;
    }

    /**
     * The namespace of one stored row: its time then a unique sequence number, so that a key's rows iterate in time
     * order and each is one state entry.
     */
    byte[] rowId(long time) {
        byte[] id = new byte[16];
        Namespaces.putOrderedLong(id, 0, time);
        Namespaces.putOrderedLong(id, 8, nextSeq++);
        return id;
    }

    /** The time part of a {@link #rowId}. */
    static long timeOf(byte[] rowId) {
        return Namespaces.getOrderedLong(rowId, 0);
    }
}
