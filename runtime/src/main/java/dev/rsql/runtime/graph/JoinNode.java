package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A regular join of two streams on equal keys. Both sides arrive through one exchange as tagged rows, so that every
 * row of one join key reaches the same task: {@code [side (0 left, 1 right), key fields..., left fields..., right
 * fields...]}, the other side's fields NULL. Each side's rows are kept per key in state; a row is joined with the
 * other side's rows of its key that satisfy the residual condition. Output: left fields then right fields, as inserts
 * and deletes (a retracted input row deletes its joined rows); an outer side's row without a match is emitted padded
 * with NULLs, and that padded row is deleted when a match arrives.
 */
public final class JoinNode extends GraphNode {

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
    private final int keyCount;
    private final RowType leftType;
    private final RowType rightType;
    private final Supplier<? extends CalcFunction> condition;
    private final String description;
    private final long stateTtlMillis;

    /**
     * @param condition the residual condition over a joined row (left fields then right fields): the function returns
     *     null when the pair does not match; null when every pair of equal keys matches
     * @param stateTtlMillis drop a key's rows after this long without changes (0 = keep forever)
     */
    public JoinNode(String id, GraphNode input, Type type, int keyCount, RowType leftType, RowType rightType,
                    RowType outputType, Supplier<? extends CalcFunction> condition, String description,
                    long stateTtlMillis) {
        super(id, List.of(input), outputType);
        if (input.outputType().size() != 1 + keyCount + leftType.size() + rightType.size()
                || outputType.size() != leftType.size() + rightType.size()) {
            throw new IllegalArgumentException("join " + id + ": tagged input or output has the wrong number of "
                    + "fields");
        }
        this.type = Objects.requireNonNull(type);
        this.keyCount = keyCount;
        this.leftType = leftType;
        this.rightType = rightType;
        this.condition = condition;
        this.description = description;
        this.stateTtlMillis = stateTtlMillis;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public Type type() {
        return type;
    }

    /** Number of key fields, at positions 1.. of the tagged input. */
    public int keyCount() {
        return keyCount;
    }

    public RowType leftType() {
        return leftType;
    }

    public RowType rightType() {
        return rightType;
    }

    /** A new residual condition for a task, or null when there is none. */
    public CalcFunction newCondition() {
        return condition == null ? null : condition.get();
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
        return description + (stateTtlMillis > 0 ? " state-ttl=" + stateTtlMillis + "ms" : "");
    }
}
