package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;

import java.util.List;

/** A node that consumes inserts only and emits inserts only, whatever the EMIT strategy. */
public interface InsertOnlyRel extends StreamPhysicalRel {

    @Override
    default ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        return ModifyKindSet.INSERT_ONLY;
    }

    @Override
    default ModifyKindSet acceptedInputKinds() {
        return ModifyKindSet.INSERT_ONLY;
    }
}
