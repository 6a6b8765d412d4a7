package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.ImmutableIntList;

import java.util.List;
import java.util.stream.Collectors;

/**
 * GROUP BY window_start, window_end (and other fields) over a window table function, behind an exchange by the other
 * fields. Emits each window's result once the window closes: inserts, plus updates (as -U/+U) when the EMIT strategy
 * fires early or late, or when the input takes rows back.
 */
public final class StreamPhysicalWindowAggregate extends Aggregate implements StreamPhysicalRel {

    /**
     * The window: where its columns are among the input fields (-1: not grouped by), whether it is on event time,
     * whether windows merge (SESSION), and whether they are sliced (HOP or CUMULATE whose window columns are only
     * grouped by, so that each row can be put into one slice instead of its windows; see {@code WindowSlices}).
     */
    public record Window(int start, int end, int time, boolean eventTime, boolean merging, boolean sliced) {
    }

    private final ImmutableIntList keys;
    private final Window window;

    /** @param keys the group fields that are not window columns (the exchange's key) */
    public StreamPhysicalWindowAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
                                         ImmutableBitSet groupSet, List<AggregateCall> aggCalls, List<Integer> keys,
                                         Window window) {
        super(cluster, traits, List.of(), input, groupSet, null, aggCalls);
        this.keys = ImmutableIntList.copyOf(keys);
        this.window = window;
    }

    @Override
    public Aggregate copy(RelTraitSet traitSet, RelNode input, ImmutableBitSet groupSet,
                          List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
        return new StreamPhysicalWindowAggregate(getCluster(), traitSet, input, groupSet, aggCalls, keys, window);
    }

    public List<Integer> keys() {
        return keys;
    }

    public Window window() {
        return window;
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        boolean changelog = inputs.get(0).isChangelog();
        return new ModifyKindSet(true, changelog || emit.producesUpdates(), changelog);
    }

    @Override
    public UpdateKind inputUpdateKind(UpdateKind required) {
        return UpdateKind.BEFORE_AND_AFTER;
    }

    @Override
    public boolean emitsUpdateBefore(UpdateKind required, boolean inputsEmitUpdateBefore) {
        return true;
    }

    @Override
    public List<ImmutableBitSet> upsertKeys(List<List<ImmutableBitSet>> inputs) {
        return List.of(ImmutableBitSet.range(getGroupCount()));
    }

    @Override
    public String describe() {
        return "WindowAggregate(groupBy=" + PhysicalPlanPrinter.fieldNames(getInput().getRowType(),
                getGroupSet().asList()) + ", select=[" + getAggCallList().stream().map(AggregateCall::toString)
                .collect(Collectors.joining(", ")) + "]" + (window.sliced() ? ", sliced" : "") + ")";
    }
}
