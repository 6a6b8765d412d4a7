package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A semi join (the left rows that have a match on the right: {@code IN}, {@code EXISTS}) or an anti join (those that
 * have none: {@code NOT IN}, {@code NOT EXISTS}) of two streams on equal keys. Both sides arrive through one exchange
 * as tagged rows, laid out as for a {@link JoinNode}: {@code [side (0 left, 1 right), key fields..., left fields...,
 * right fields...]}. Output: the left fields, as inserts and deletes: a left row is inserted when it becomes visible
 * (semi: its first match arrives; anti: its last match goes) and deleted when it stops being visible.
 */
public final class SemiAntiJoinNode extends GraphNode {

    private final boolean anti;
    private final int keyCount;
    private final RowType leftType;
    private final RowType rightType;
    private final Supplier<? extends CalcFunction> condition;
    private final String description;
    private final long stateTtlMillis;

    /**
     * @param anti true for an anti join, false for a semi join
     * @param condition the residual condition over a joined row (left fields then right fields): the function returns
     *     null when the pair does not match; null when every pair of equal keys matches
     * @param stateTtlMillis drop a key's rows after this long without changes (0 = keep forever)
     */
    public SemiAntiJoinNode(String id, GraphNode input, boolean anti, int keyCount, RowType leftType,
                            RowType rightType, Supplier<? extends CalcFunction> condition, String description,
                            long stateTtlMillis) {
        super(id, List.of(input), leftType);
        if (input.outputType().size() != 1 + keyCount + leftType.size() + rightType.size()) {
            throw new IllegalArgumentException("semi/anti join " + id + ": tagged input has the wrong number of "
                    + "fields");
        }
        this.anti = anti;
        this.keyCount = keyCount;
        this.leftType = Objects.requireNonNull(leftType);
        this.rightType = Objects.requireNonNull(rightType);
        this.condition = condition;
        this.description = description;
        this.stateTtlMillis = stateTtlMillis;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public boolean anti() {
        return anti;
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

    /** An anti join deletes a row when its first match arrives; a semi join when an input takes rows back. */
    @Override
    public boolean producesUpdates() {
        return anti || super.producesUpdates();
    }

    @Override
    public boolean keepsState() {
        return true;
    }

    @Override
    public String kind() {
        return anti ? "AntiJoin" : "SemiJoin";
    }

    @Override
    public String describe() {
        return description + (stateTtlMillis > 0 ? " state-ttl=" + stateTtlMillis + "ms" : "");
    }
}
