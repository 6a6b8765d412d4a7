package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.List;

/** Merges inputs of the same row type (UNION ALL). */
public final class UnionNode extends GraphNode {

    public UnionNode(String id, List<GraphNode> inputs, RowType outputType) {
        super(id, inputs, outputType);
        if (inputs.size() < 2) {
            throw new IllegalArgumentException("a union needs at least two inputs");
        }
    }

    @Override
    public String kind() {
        return "Union";
    }

    @Override
    public String describe() {
        return "all";
    }
}
