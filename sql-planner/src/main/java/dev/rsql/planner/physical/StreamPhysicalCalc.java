package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;

/**
 * Filters and projects rows. A filter over updates needs them as -U/+U pairs (Flink's FLINK-9528): with +U alone, a
 * row whose new version fails the filter would stay downstream forever; with the pair the operator turns it into a
 * delete.
 */
public final class StreamPhysicalCalc extends Calc implements StreamPhysicalRel {

    public StreamPhysicalCalc(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexProgram program) {
        super(cluster, traits, List.of(), input, program);
    }

    @Override
    public Calc copy(RelTraitSet traitSet, RelNode child, RexProgram program) {
        return new StreamPhysicalCalc(getCluster(), traitSet, child, program);
    }

    /** True when the calc drops rows (it has a WHERE or HAVING condition). */
    public boolean hasCondition() {
        return getProgram().getCondition() != null;
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        ModifyKindSet in = inputs.get(0);
        // A filter can turn one half of an update into a delete or an insert.
        return hasCondition() && in.update() ? ModifyKindSet.ALL : in;
    }

    @Override
    public UpdateKind inputUpdateKind(UpdateKind required) {
        return hasCondition() ? UpdateKind.BEFORE_AND_AFTER : required;
    }

    /** Input keys all of whose fields are projected unchanged, renumbered to the output. */
    @Override
    public List<ImmutableBitSet> upsertKeys(List<List<ImmutableBitSet>> inputs) {
        List<RexNode> projects = new ArrayList<>();
        getProgram().getProjectList().forEach(p -> projects.add(getProgram().expandLocalRef(p)));
        List<ImmutableBitSet> keys = new ArrayList<>();
        for (ImmutableBitSet key : inputs.get(0)) {
            ImmutableBitSet.Builder mapped = ImmutableBitSet.builder();
            boolean complete = true;
            for (int field : key) {
                int out = -1;
                for (int i = 0; i < projects.size() && out < 0; i++) {
                    if (projects.get(i) instanceof RexInputRef && ((RexInputRef) projects.get(i)).getIndex() == field) {
                        out = i;
                    }
                }
                if (out < 0) {
                    complete = false;
                    break;
                }
                mapped.set(out);
            }
            if (complete) {
                keys.add(mapped.build());
            }
        }
        return keys;
    }

    @Override
    public String describe() {
        return "Calc(" + RexFormatter.describe(getProgram()) + ")";
    }
}
