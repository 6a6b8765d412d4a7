package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the time-bounded joins (interval, window, temporal) share with the regular {@link JoinNode}: both sides arrive
 * through one exchange as tagged rows {@code [side (0 left, 1 right), key fields..., left fields..., right
 * fields...]}, and the output is the left fields then the right fields. Unlike a regular join, these read and emit
 * inserts only: a row is emitted once it is final, never taken back, and state is dropped as time passes.
 */
public abstract class TaggedJoinNode extends GraphNode {

    private final JoinNode.Type type;
    private final int keyCount;
    private final RowType leftType;
    private final RowType rightType;
    private final Supplier<? extends CalcFunction> condition;
    private final String description;

    /**
     * @param condition the residual condition over a joined row (left fields then right fields): the function returns
     *     null when the pair does not match; null when every pair of equal keys matches
     */
    protected TaggedJoinNode(String id, GraphNode input, JoinNode.Type type, int keyCount, RowType leftType,
                             RowType rightType, RowType outputType, Supplier<? extends CalcFunction> condition,
                             String description) {
        super(id, List.of(input), outputType);
        if (input.outputType().size() != 1 + keyCount + leftType.size() + rightType.size()
                || outputType.size() != leftType.size() + rightType.size()) {
            throw new IllegalArgumentException(kind() + " " + id + ": tagged input or output has the wrong number of "
                    + "fields");
        }
        this.type = Objects.requireNonNull(type);
        this.keyCount = keyCount;
        this.leftType = leftType;
        this.rightType = rightType;
        this.condition = condition;
        this.description = description;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public JoinNode.Type type() {
        return type;
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

    /** Insert-only: rows are emitted when final. */
    @Override
    public boolean producesUpdates() {
        return false;
    }

    @Override
    public boolean keepsState() {
        return true;
    }

    @Override
    public String describe() {
        return description;
    }
}
