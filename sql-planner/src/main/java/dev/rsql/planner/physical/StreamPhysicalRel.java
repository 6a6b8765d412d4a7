package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * A node of the physical streaming plan: what one operator of the graph will do. Each says what changes it emits
 * and what it needs of its inputs, which {@link ChangelogInference} combines over the plan, and is turned into graph
 * nodes by a {@link StreamPhysicalVisitor}.
 */
public interface StreamPhysicalRel extends RelNode {

    <R> R accept(StreamPhysicalVisitor<R> visitor);

    /**
     * The kinds of change this node emits, given those of its inputs. {@code emit} is the INSERT's EMIT strategy
     * (early and late window results are updates).
     */
    ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit);

    /** The kinds of change this node can consume; an input emitting more is a plan error. */
    default ModifyKindSet acceptedInputKinds() {
        return ModifyKindSet.ALL;
    }

    /** The kinds of change this node can consume from its input {@code input}; by default the same for all. */
    default ModifyKindSet acceptedInputKinds(int input) {
        return acceptedInputKinds();
    }

    /**
     * How this node needs the updates of its updating inputs encoded, given how its consumer needs its own. By
     * default the consumer's need is passed on (the node forwards rows as they come).
     */
    default UpdateKind inputUpdateKind(UpdateKind required) {
        return required;
    }

    /** True when this node emits -U rows, given what its consumer needs and whether its inputs emit them. */
    default boolean emitsUpdateBefore(UpdateKind required, boolean inputsEmitUpdateBefore) {
        return inputsEmitUpdateBefore;
    }

    /**
     * The sets of output fields by which each change of this node addresses one row (upsert keys), given those of
     * its inputs: a change with such a key replaces or removes the earlier row with that key. None by default.
     */
    default List<ImmutableBitSet> upsertKeys(List<List<ImmutableBitSet>> inputs) {
        return List.of();
    }

    /** One line for EXPLAIN: the node's kind and what it does. */
    String describe();
}
