package dev.rsql.runtime.graph;

import dev.rsql.runtime.table.TableDescriptor;

import java.util.List;

/** Writes its input to a table. All INSERTs into one table share one sink node. */
public final class SinkNode extends GraphNode {

    private final TableDescriptor table;

    public SinkNode(String id, GraphNode input, TableDescriptor table) {
        super(id, List.of(input), table.schema().rowType());
        if (input.outputType().size() != table.schema().columns().size()) {
            throw new IllegalArgumentException("sink " + table.name() + " has " + table.schema().columns().size()
                    + " columns but its input has " + input.outputType().size());
        }
        this.table = table;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public TableDescriptor table() {
        return table;
    }

    @Override
    public String kind() {
        return "Sink";
    }

    @Override
    public String describe() {
        return table.name() + " connector=" + table.connector()
                + (table.schema().primaryKey().isEmpty() ? "" : " upsert-key=" + table.schema().primaryKey());
    }
}
