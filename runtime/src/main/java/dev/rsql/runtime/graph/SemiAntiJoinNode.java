package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.function.Supplier;

/**
 * A semi join (the left rows that have a match on the right: {@code IN}, {@code EXISTS}) or an anti join (those that
 * have none: {@code NOT IN}, {@code NOT EXISTS}) of two streams on equal keys. Both sides arrive through one exchange
 * as tagged rows, laid out as for a {@link JoinNode}: {@code [side (0 left, 1 right), key fields..., left fields...,
 * right fields...]}. Output: the left fields, as inserts and deletes: a left row is inserted when it becomes visible
 * (semi: its first match arrives; anti: its last match goes) and deleted when it stops being visible.
 */
public final class SemiAntiJoinNode extends TaggedJoinNode {

    private final boolean anti;
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
        super(id, input, keyCount, leftType, rightType, leftType, condition, description);
        this.anti = anti;
        this.stateTtlMillis = stateTtlMillis;
    }

    public boolean anti() {
        return anti;
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
    public String kind() {
        return anti ? "AntiJoin" : "SemiJoin";
    }

    @Override
    public String describe() {
        return super.describe() + (stateTtlMillis > 0 ? " state-ttl=" + stateTtlMillis + "ms" : "");
    }
}
