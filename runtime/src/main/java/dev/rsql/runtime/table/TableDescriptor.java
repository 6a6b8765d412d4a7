package dev.rsql.runtime.table;

import dev.rsql.runtime.config.Options;

import java.util.Objects;

/** A table as a connector sees it: its name in the job, schema, connector identifier and options. */
public final class TableDescriptor {

    private final String name;
    private final TableSchema schema;
    private final String connector;
    private final Options options;

    public TableDescriptor(String name, TableSchema schema, String connector, Options options) {
        this.name = Objects.requireNonNull(name);
        this.schema = Objects.requireNonNull(schema);
        this.connector = Objects.requireNonNull(connector);
        this.options = Objects.requireNonNull(options);
    }

    public String name() {
        return name;
    }

    public TableSchema schema() {
        return schema;
    }

    public String connector() {
        return connector;
    }

    public Options options() {
        return options;
    }

    @Override
    public String toString() {
        return name + " (connector=" + connector + ")";
    }
}
