package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.Objects;

/**
 * A node of an operator graph. Immutable. The id is stable for the same plan (derived from what the node does,
 * not from the order nodes were built in) because state and internal topics are named after it.
 */
public abstract class GraphNode {

    private final String id;
    private final List<GraphNode> inputs;
    private final RowType outputType;

    protected GraphNode(String id, List<GraphNode> inputs, RowType outputType) {
        this.id = Objects.requireNonNull(id);
        this.inputs = List.copyOf(inputs);
        this.outputType = Objects.requireNonNull(outputType);
    }

    public String id() {
        return id;
    }

    public List<GraphNode> inputs() {
        return inputs;
    }

    public RowType outputType() {
        return outputType;
    }

    /**
     * True when the rows this node emits include updates or deletes (a changelog), e.g. after a non-window
     * aggregation; stateful operators and sinks downstream must then handle retractions.
     */
    public boolean producesUpdates() {
        for (GraphNode in : inputs) {
            if (in.producesUpdates()) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when the node's operator keeps keyed state (named after the node's id), which checkpoints carry over a
     * restart; a restart refuses to restore it into an operator whose definition changed.
     */
    public boolean keepsState() {
        return false;
    }

    /** The kind of node as EXPLAIN shows it, e.g. {@code Source}. */
    public abstract String kind();

    /** One line of detail for EXPLAIN, e.g. the filter condition. */
    public abstract String describe();

    @Override
    public String toString() {
        return kind() + "[" + id + "]";
    }
}
