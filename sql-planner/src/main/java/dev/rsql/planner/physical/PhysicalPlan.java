package dev.rsql.planner.physical;

import org.apache.calcite.rel.RelNode;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;

/** The physical plan of one INSERT, with the changelog of every node as {@link ChangelogInference} inferred it. */
public final class PhysicalPlan {

    private final StreamPhysicalSink root;
    private final Map<RelNode, NodeChangelog> changelogs;

    PhysicalPlan(StreamPhysicalSink root, IdentityHashMap<RelNode, NodeChangelog> changelogs) {
        this.root = root;
        this.changelogs = Collections.unmodifiableMap(new IdentityHashMap<>(changelogs));
    }

    public StreamPhysicalSink root() {
        return root;
    }

    /** The changelog of a node of this plan. */
    public NodeChangelog changelog(RelNode node) {
        NodeChangelog c = changelogs.get(node);
        if (c == null) {
            throw new IllegalArgumentException("not a node of this plan: " + node);
        }
        return c;
    }

    public ChangelogMode mode(RelNode node) {
        return changelog(node).mode();
    }

    /** The plan as EXPLAIN prints it: one node per line, inputs indented, each with its changelog. */
    public String explain() {
        return PhysicalPlanPrinter.print(this);
    }

    @Override
    public String toString() {
        return explain();
    }
}
