package dev.rsql.runtime.graph;

import dev.rsql.runtime.table.TableDescriptor;

import java.util.List;
import java.util.Objects;

/** Reads a table. Every consumer of the table in a job shares one source node and one decoding. */
public final class SourceNode extends GraphNode {

    private final TableDescriptor table;
    private final ErrorPolicy errorPolicy;
    private final TableDescriptor deadLetterTable;

    public SourceNode(String id, TableDescriptor table, ErrorPolicy errorPolicy, TableDescriptor deadLetterTable) {
        super(id, List.of(), table.schema().rowType());
        this.table = table;
        this.errorPolicy = Objects.requireNonNull(errorPolicy);
        this.deadLetterTable = deadLetterTable;
    }

    public TableDescriptor table() {
        return table;
    }

    /** What to do with a record that cannot be decoded. */
    public ErrorPolicy errorPolicy() {
        return errorPolicy;
    }

    /** Where skipped records go, or null. */
    public TableDescriptor deadLetterTable() {
        return deadLetterTable;
    }

    @Override
    public String kind() {
        return "Source";
    }

    @Override
    public String describe() {
        return table.name() + " connector=" + table.connector() + " fields=" + outputType()
                + (errorPolicy == ErrorPolicy.FAIL ? "" : " on-error=" + errorPolicy.name().toLowerCase())
                + (deadLetterTable == null ? "" : " dead-letter=" + deadLetterTable.name());
    }
}
