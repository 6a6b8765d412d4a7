package dev.rsql.planner.physical;

import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/** What changelog inference found for one physical node: the changes it emits and its upsert keys. */
public record NodeChangelog(ChangelogMode mode, List<ImmutableBitSet> upsertKeys) {

    public NodeChangelog {
        upsertKeys = List.copyOf(upsertKeys);
    }
}
