package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A regular join of two streams on equal keys, over tagged rows ({@link TaggedJoinNode}): a row is joined with the
 * other side's rows of its key that satisfy the residual condition. Output: left fields then right fields, as inserts
 * and deletes (a retracted input row deletes its joined rows); an outer side's row without a match is emitted padded
 * with NULLs, and that padded row is deleted when a match arrives.
 */
public final class JoinNode extends TaggedJoinNode {

    /** Which rows without a match are kept. */
    public enum Type {
        INNER(false, false), LEFT(true, false), RIGHT(false, true), FULL(true, true);

        private final boolean leftOuter;
        private final boolean rightOuter;

        Type(boolean leftOuter, boolean rightOuter) {
            this.leftOuter = leftOuter;
            this.rightOuter = rightOuter;
        }

        public boolean leftOuter() {
            return leftOuter;
        }

        public boolean rightOuter() {
            return rightOuter;
        }
    }

    private final Type type;
    private final long stateTtlMillis;

    /**
     * @param condition the residual condition over a joined row (left fields then right fields): the function returns
     *     null when the pair does not match; null when every pair of equal keys matches
     * @param stateTtlMillis drop a key's rows after this long without changes (0 = keep forever)
     */
    public JoinNode(String id, GraphNode input, Type type, int keyCount, RowType leftType, RowType rightType,
                    RowType outputType, Supplier<? extends CalcFunction> condition, String description,
                    long stateTtlMillis) {
        super(id, input, keyCount, leftType, rightType, checkedJoinedType(id, leftType, rightType, outputType),
                condition, description);
        this.type = Objects.requireNonNull(type);
        this.stateTtlMillis = stateTtlMillis;
    }

    public Type type() {
        return type;
    }

    public long stateTtlMillis() {
        return stateTtlMillis;
    }

    /** Outer joins delete padded rows; any join deletes what a retracted input row produced. */
    @Override
    public boolean producesUpdates() {
        return type != Type.INNER || super.producesUpdates();
    }

    @Override
    public String kind() {
        return "Join";
    }

    @Override
    public String describe() {
        return super.describe() + (stateTtlMillis > 0 ? " state-ttl=" + stateTtlMillis + "ms" : "");
    }
}
