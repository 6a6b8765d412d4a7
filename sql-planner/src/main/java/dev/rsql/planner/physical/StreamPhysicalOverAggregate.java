package dev.rsql.planner.physical;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.util.ImmutableIntList;

import java.util.List;

/**
 * Aggregates of one OVER window ({@code PARTITION BY k ORDER BY time ROWS|RANGE BETWEEN ... PRECEDING AND CURRENT
 * ROW}), behind an exchange by the partition fields: each input row followed by the aggregates' values over its
 * window. Event-time rows come out once the watermark passes them, in time order. Insert-only in and out, as in
 * Flink's time-ordered over aggregations.
 */
public final class StreamPhysicalOverAggregate extends SingleRel implements InsertOnlyRel {

    /** {@link #preceding} of an UNBOUNDED PRECEDING window. */
    public static final long UNBOUNDED = -1;

    private final ImmutableIntList partitionKeys;
    private final int orderField;
    private final Lineage.Time time;
    private final boolean rows;
    private final long preceding;
    private final List<AggregateCall> aggCalls;

    /**
     * @param preceding rows (ROWS) or milliseconds (RANGE) the window reaches back, or {@link #UNBOUNDED}
     * @param rowType the input's fields, then one per aggregate call
     */
    public StreamPhysicalOverAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
                                       List<Integer> partitionKeys, int orderField, Lineage.Time time, boolean rows,
                                       long preceding, List<AggregateCall> aggCalls, RelDataType rowType) {
        super(cluster, traits, input);
        this.partitionKeys = ImmutableIntList.copyOf(partitionKeys);
        this.orderField = orderField;
        this.time = time;
        this.rows = rows;
        this.preceding = preceding;
        this.aggCalls = List.copyOf(aggCalls);
        this.rowType = rowType;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalOverAggregate(getCluster(), traitSet, sole(inputs), partitionKeys, orderField, time,
                rows, preceding, aggCalls, rowType);
    }

    public int[] partitionKeys() {
        return partitionKeys.toIntArray();
    }

    public int orderField() {
        return orderField;
    }

    public boolean eventTime() {
        return time == Lineage.Time.EVENT;
    }

    public boolean rows() {
        return rows;
    }

    public long preceding() {
        return preceding;
    }

    public List<AggregateCall> aggCalls() {
        return aggCalls;
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("partitionBy", partitionKeys).item("orderBy", orderField)
                .item("frame", frame()).item("aggs", aggCalls);
    }

    private String frame() {
        String from = preceding == UNBOUNDED ? "UNBOUNDED" : rows ? String.valueOf(preceding) : preceding + " ms";
        return (rows ? "ROWS" : "RANGE") + " BETWEEN " + from + " PRECEDING AND CURRENT ROW";
    }

    @Override
    public String describe() {
        RelDataType in = getInput().getRowType();
        return "OverAggregate(partitionBy=" + PhysicalPlanPrinter.fieldNames(in, partitionKeys) + ", orderBy=["
                + in.getFieldNames().get(orderField) + "], " + frame() + ", " + PhysicalPlanPrinter.select(aggCalls)
                + ")";
    }
}
