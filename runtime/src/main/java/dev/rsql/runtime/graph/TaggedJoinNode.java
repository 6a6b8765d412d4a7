package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A join of two streams whose sides arrive through one exchange by the join key as tagged rows, so that every row of
 * a key reaches the same task: {@code [side (0 left, 1 right), key fields..., left fields..., right fields...]}, the
 * other side's fields NULL. Each side's rows are kept per key in state.
 */
public abstract class TaggedJoinNode extends GraphNode {

    private final int keyCount;
    private final RowType leftType;
    private final RowType rightType;
    private final Supplier<? extends CalcFunction> condition;
    private final String description;

    /**
     * @param condition the residual condition over a joined row (left fields then right fields): the function returns
     *     null when the pair does not match; null when every pair of equal keys matches
     */
    protected TaggedJoinNode(String id, GraphNode input, int keyCount, RowType leftType, RowType rightType,
                             RowType outputType, Supplier<? extends CalcFunction> condition, String description) {
        super(id, List.of(input), outputType);
        if (input.outputType().size() != 1 + keyCount + leftType.size() + rightType.size()) {
            throw new IllegalArgumentException("join " + id + ": tagged input has the wrong number of fields");
        }
        this.keyCount = keyCount;
        this.leftType = Objects.requireNonNull(leftType);
        this.rightType = Objects.requireNonNull(rightType);
        this.condition = condition;
        this.description = description;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    /** Number of key fields, at positions 1.. of the tagged input (0: every row in one partition). */
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

    @Override
    public boolean keepsState() {
        return true;
    }

    @Override
    public String describe() {
        return description;
    }

    /** The output of a join that emits both sides: left fields then right fields. */
    static RowType checkedJoinedType(String id, RowType leftType, RowType rightType, RowType outputType) {
        if (outputType.size() != leftType.size() + rightType.size()) {
            throw new IllegalArgumentException("join " + id + ": output has the wrong number of fields");
        }
        return outputType;
    }
}
