package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.function.Supplier;

/**
 * An interval join: rows of equal keys whose times are close, {@code lowerBound <= left time - right time <=
 * upperBound} (milliseconds), plus a residual condition. Event time (the rows' rowtime fields, state dropped by the
 * watermark) or processing time (the clock when a row arrives, state dropped by the clock). A row is kept only while
 * rows of the other side can still match it; an outer side's row that expires unmatched is emitted padded with NULLs
 * then. The output watermark is held back by the larger bound, so that padded rows are not late downstream and the
 * output's time fields stay valid rowtimes. Its input must be partitioned by the key fields.
 */
public final class IntervalJoinNode extends TimeBoundedJoinNode {

    private final boolean eventTime;
    private final int leftTimeField;
    private final int rightTimeField;
    private final long lowerBound;
    private final long upperBound;

    /** @param leftTimeField, rightTimeField the rowtime fields in each side's rows (event time only) */
    public IntervalJoinNode(String id, GraphNode input, JoinNode.Type type, int keyCount, RowType leftType,
                            RowType rightType, RowType outputType, Supplier<? extends CalcFunction> condition,
                            String description, boolean eventTime, int leftTimeField, int rightTimeField,
                            long lowerBound, long upperBound) {
        super(id, input, type, keyCount, leftType, rightType, outputType, condition, description);
        if (lowerBound > upperBound) {
            throw new IllegalArgumentException("interval join " + id + ": lower bound " + lowerBound
                    + " above upper bound " + upperBound);
        }
        this.eventTime = eventTime;
        this.leftTimeField = leftTimeField;
        this.rightTimeField = rightTimeField;
        this.lowerBound = lowerBound;
        this.upperBound = upperBound;
    }

    public boolean eventTime() {
        return eventTime;
    }

    public int leftTimeField() {
        return leftTimeField;
    }

    public int rightTimeField() {
        return rightTimeField;
    }

    public long lowerBound() {
        return lowerBound;
    }

    public long upperBound() {
        return upperBound;
    }

    /** How far the output watermark stays behind the input's, as in Flink (event time only). */
    public long watermarkDelay() {
        return eventTime ? Math.max(0, Math.max(-lowerBound, upperBound)) : 0;
    }

    @Override
    public String kind() {
        return "IntervalJoin";
    }
}
