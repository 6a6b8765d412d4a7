package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the time-bounded joins (interval, window, temporal) share: tagged inputs as for a regular {@link JoinNode}
 * and output of the left fields then the right fields; unlike a regular join, they read and emit inserts only: a row
 * is emitted once it is final, never taken back, and state is dropped as time passes.
 */
public abstract class TimeBoundedJoinNode extends TaggedJoinNode {

    private final JoinNode.Type type;

    protected TimeBoundedJoinNode(String id, GraphNode input, JoinNode.Type type, int keyCount, RowType leftType,
                                  RowType rightType, RowType outputType, Supplier<? extends CalcFunction> condition,
                                  String description) {
        super(id, input, keyCount, leftType, rightType, checkedJoinedType(id, leftType, rightType, outputType),
                condition, description);
        this.type = Objects.requireNonNull(type);
    }

    public JoinNode.Type type() {
        return type;
    }

    /** Insert-only: rows are emitted when final. */
    @Override
    public boolean producesUpdates() {
        return false;
    }
}
