package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.function.Supplier;

/**
 * A join of two window table functions' outputs on equal windows (window_start and window_end among the key fields)
 * and further keys: each side's rows are kept per key, and when the watermark passes the window's end the two sides
 * are joined (padded with NULLs for outer sides), emitted, and dropped. Rows whose window has already been joined
 * are late and dropped. Event time only. Its input must be partitioned by the key fields.
 */
public final class WindowJoinNode extends TimeBoundedJoinNode {

    private final int leftWindowEndField;
    private final int rightWindowEndField;

    public WindowJoinNode(String id, GraphNode input, JoinNode.Type type, int keyCount, RowType leftType,
                          RowType rightType, RowType outputType, Supplier<? extends CalcFunction> condition,
                          String description, int leftWindowEndField, int rightWindowEndField) {
        super(id, input, type, keyCount, leftType, rightType, outputType, condition, description);
        this.leftWindowEndField = leftWindowEndField;
        this.rightWindowEndField = rightWindowEndField;
    }

    /** The window_end field in left rows. */
    public int leftWindowEndField() {
        return leftWindowEndField;
    }

    /** The window_end field in right rows. */
    public int rightWindowEndField() {
        return rightWindowEndField;
    }

    @Override
    public String kind() {
        return "WindowJoin";
    }
}
