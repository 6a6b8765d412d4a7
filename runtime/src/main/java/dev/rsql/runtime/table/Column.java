package dev.rsql.runtime.table;

import dev.rsql.runtime.types.DataType;

import java.util.Objects;

/**
 * A column a connector reads or writes: either part of the payload (physical) or an attribute of the message
 * (metadata, e.g. a RocketMQ tag or queue offset). Computed columns never reach a connector.
 */
public final class Column {

    private final String name;
    private final DataType type;
    private final String metadataKey;   // null for physical columns
    private final boolean virtual;

    private Column(String name, DataType type, String metadataKey, boolean virtual) {
        this.name = Objects.requireNonNull(name);
        this.type = Objects.requireNonNull(type);
        this.metadataKey = metadataKey;
        this.virtual = virtual;
    }

    public static Column physical(String name, DataType type) {
        return new Column(name, type, null, false);
    }

    /**
     * @param key the connector's metadata key (e.g. {@code tag}, {@code queue_offset}); for Blink HEADER columns
     *            the column name
     * @param virtual read-only: a sink does not write it
     */
    public static Column metadata(String name, DataType type, String key, boolean virtual) {
        return new Column(name, type, Objects.requireNonNull(key), virtual);
    }

    public String name() {
        return name;
    }

    public DataType type() {
        return type;
    }

    public boolean isPhysical() {
        return metadataKey == null;
    }

    public boolean isMetadata() {
        return metadataKey != null;
    }

    public String metadataKey() {
        return metadataKey;
    }

    public boolean isVirtual() {
        return virtual;
    }

    @Override
    public String toString() {
        return name + " " + type + (metadataKey == null ? "" : " METADATA FROM '" + metadataKey + "'" + (virtual ? " VIRTUAL" : ""));
    }
}
