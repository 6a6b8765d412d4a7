package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * Deduplication: {@code ROW_NUMBER() OVER (PARTITION BY k ORDER BY time) = 1} without the rank column, ordered by a
 * time attribute, behind an exchange by the partition fields. ASC keeps the first row of each key, DESC the last. It
 * reads insert-only input. Keep-first on processing time emits each key's first row and never changes it (insert-only);
 * the other forms replace a key's row by a later (keep-last) or, on event time, an earlier (keep-first) one, as an
 * update. Upsert key: the partition fields.
 */
public final class StreamPhysicalDeduplicate extends SingleRel implements StreamPhysicalRel {

    private final ImmutableBitSet partitionKeys;
    private final int timeField;
    private final boolean eventTime;
    private final boolean keepLast;

    public StreamPhysicalDeduplicate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
                                     ImmutableBitSet partitionKeys, int timeField, boolean eventTime,
                                     boolean keepLast) {
        super(cluster, traits, input);
        this.partitionKeys = partitionKeys;
        this.timeField = timeField;
        this.eventTime = eventTime;
        this.keepLast = keepLast;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalDeduplicate(getCluster(), traitSet, sole(inputs), partitionKeys, timeField, eventTime,
                keepLast);
    }

    public ImmutableBitSet partitionKeys() {
        return partitionKeys;
    }

    public int timeField() {
        return timeField;
    }

    public boolean eventTime() {
        return eventTime;
    }

    public boolean keepLast() {
        return keepLast;
    }

    /** Keep-first on processing time: the first row of a key is final. */
    private boolean insertOnly() {
        return !eventTime && !keepLast;
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet acceptedInputKinds() {
        return ModifyKindSet.INSERT_ONLY;
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        return insertOnly() ? ModifyKindSet.INSERT_ONLY : new ModifyKindSet(true, true, false);
    }

    @Override
    public boolean emitsUpdateBefore(UpdateKind required, boolean inputsEmitUpdateBefore) {
        return required == UpdateKind.BEFORE_AND_AFTER;
    }

    @Override
    public List<ImmutableBitSet> upsertKeys(List<List<ImmutableBitSet>> inputs) {
        return List.of(partitionKeys);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("partitionBy", partitionKeys).item("time", timeField)
                .item("eventTime", eventTime).item("keepLast", keepLast);
    }

    @Override
    public String describe() {
        return "Deduplicate(keep=[" + (keepLast ? "LastRow" : "FirstRow") + "], key="
                + PhysicalPlanPrinter.fieldNames(getInput().getRowType(), partitionKeys.asList()) + ", order=["
                + (eventTime ? "ROWTIME" : "PROCTIME") + "])";
    }
}
