package dev.rsql.planner.catalog;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/** A column as declared in CREATE TABLE: payload, message metadata, or computed from other columns. */
public final class TableColumn {

    public enum Kind { PHYSICAL, METADATA, COMPUTED }

    private final String name;
    private final Kind kind;
    private final RelDataType type;          // null for computed columns
    private final SqlNode expression;        // computed columns only
    private final String metadataKey;        // metadata columns only
    private final boolean virtual;
    private final SqlParserPos position;

    private TableColumn(String name, Kind kind, RelDataType type, SqlNode expression, String metadataKey,
                        boolean virtual, SqlParserPos position) {
        this.name = name;
        this.kind = kind;
        this.type = type;
        this.expression = expression;
        this.metadataKey = metadataKey;
        this.virtual = virtual;
        this.position = position;
    }

    public static TableColumn physical(String name, RelDataType type, SqlParserPos pos) {
        return new TableColumn(name, Kind.PHYSICAL, type, null, null, false, pos);
    }

    public static TableColumn metadata(String name, RelDataType type, String key, boolean virtual, SqlParserPos pos) {
        return new TableColumn(name, Kind.METADATA, type, null, key, virtual, pos);
    }

    public static TableColumn computed(String name, SqlNode expression, SqlParserPos pos) {
        return new TableColumn(name, Kind.COMPUTED, null, expression, null, true, pos);
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    public boolean isComputed() {
        return kind == Kind.COMPUTED;
    }

    /** Declared type; null for computed columns (derived from the expression). */
    public RelDataType type() {
        return type;
    }

    public SqlNode expression() {
        return expression;
    }

    public String metadataKey() {
        return metadataKey;
    }

    public boolean isVirtual() {
        return virtual;
    }

    public SqlParserPos position() {
        return position;
    }
}
