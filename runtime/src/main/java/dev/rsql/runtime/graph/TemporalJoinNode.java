package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.function.Supplier;

/**
 * An event-time temporal join ({@code FOR SYSTEM_TIME AS OF left.rowtime}) with a versioned table: each right row is
 * the version of its key valid from its rowtime on. Left rows wait until the watermark passes their time, then are
 * joined with the version valid at that time (INNER: dropped without one; LEFT: padded with NULLs). Versions older
 * than the one valid at the watermark are dropped. A right side that is a changelog ends a version with a -D row
 * at its rowtime (-U rows are ignored). Its input must be partitioned by the key fields (the versioned table's primary key).
 */
public final class TemporalJoinNode extends TimeBoundedJoinNode {

    private final int leftTimeField;
    private final int rightTimeField;

    public TemporalJoinNode(String id, GraphNode input, JoinNode.Type type, int keyCount, RowType leftType,
                            RowType rightType, RowType outputType, Supplier<? extends CalcFunction> condition,
                            String description, int leftTimeField, int rightTimeField) {
        super(id, input, type, keyCount, leftType, rightType, outputType, condition, description);
        if (type.rightOuter()) {
            throw new IllegalArgumentException("temporal join " + id + ": only INNER and LEFT");
        }
        this.leftTimeField = leftTimeField;
        this.rightTimeField = rightTimeField;
    }

    /** The rowtime field in left rows: the time a left row looks its version up at. */
    public int leftTimeField() {
        return leftTimeField;
    }

    /** The rowtime field in right rows: the time a version is valid from. */
    public int rightTimeField() {
        return rightTimeField;
    }

    @Override
    public String kind() {
        return "TemporalJoin";
    }
}
