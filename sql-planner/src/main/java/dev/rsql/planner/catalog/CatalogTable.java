package dev.rsql.planner.catalog;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.calcite.TypeConverter;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A table declared by CREATE TABLE in a script. Immutable. */
public final class CatalogTable {

    private final String name;
    private final List<TableColumn> columns;
    private final List<String> primaryKey;
    private final WatermarkSpec watermark;
    private final boolean dimension;
    private final String connector;
    private final Options options;
    private final Map<String, SqlParserPos> optionPositions;
    private final SqlParserPos position;
    private final List<Index> indexes;

    /** A lookup index declared with {@code [UNIQUE] INDEX (cols)} (Blink's dimension-table DDL). */
    public record Index(List<String> columns, boolean unique) {
    }

    /** @param optionPositions where each option is written, by lower-case key */
    public CatalogTable(String name, List<TableColumn> columns, List<String> primaryKey, WatermarkSpec watermark,
                        boolean dimension, String connector, Options options, Map<String, SqlParserPos> optionPositions,
                        SqlParserPos position) {
        this(name, columns, primaryKey, watermark, dimension, connector, options, optionPositions, position,
                List.of());
    }

    private CatalogTable(String name, List<TableColumn> columns, List<String> primaryKey, WatermarkSpec watermark,
                         boolean dimension, String connector, Options options,
                         Map<String, SqlParserPos> optionPositions, SqlParserPos position, List<Index> indexes) {
        this.name = name;
        this.columns = List.copyOf(columns);
        this.primaryKey = List.copyOf(primaryKey);
        this.watermark = watermark;
        this.dimension = dimension;
        this.connector = connector;
        this.options = options;
        this.optionPositions = Map.copyOf(optionPositions);
        this.position = position;
        this.indexes = List.copyOf(indexes);
    }

    public String name() {
        return name;
    }

    public List<TableColumn> columns() {
        return columns;
    }

    public List<String> primaryKey() {
        return primaryKey;
    }

    /** The declared lookup indexes, in declaration order. */
    public List<Index> indexes() {
        return indexes;
    }

    /** This table with its declared indexes. */
    public CatalogTable withIndexes(List<Index> declared) {
        return new CatalogTable(name, columns, primaryKey, watermark, dimension, connector, options,
                optionPositions, position, declared);
    }

    /** The watermark declaration, or null. */
    public WatermarkSpec watermark() {
        return watermark;
    }

    /** Declared as a dimension (lookup) table with PERIOD FOR SYSTEM_TIME. */
    public boolean isDimension() {
        return dimension;
    }

    /** Connector identifier from Flink's {@code 'connector'} or Blink's {@code type}. */
    public String connector() {
        return connector;
    }

    public Options options() {
        return options;
    }

    public SqlParserPos position() {
        return position;
    }

    /** Where the option is written in the WITH clause; the table's position when the key is null or absent. */
    public SqlParserPos optionPosition(String key) {
        SqlParserPos p = key == null ? null : optionPositions.get(key.toLowerCase(Locale.ROOT));
        return p == null ? position : p;
    }

    public boolean hasComputedColumns() {
        return columns.stream().anyMatch(TableColumn::isComputed);
    }

    /** The columns a connector reads and writes (all but computed ones), as a Calcite row type. */
    public RelDataType storedRowType(RelDataTypeFactory f) {
        RelDataTypeFactory.Builder b = f.builder();
        for (TableColumn c : columns) {
            if (!c.isComputed()) {
                b.add(c.name(), c.type());
            }
        }
        return b.build();
    }

    /** The table as the runtime's connectors see it. */
    public TableDescriptor descriptor() {
        List<Column> cols = new ArrayList<>();
        for (TableColumn c : columns) {
            switch (c.kind()) {
                case PHYSICAL:
                    cols.add(Column.physical(c.name(), TypeConverter.toDataType(c.type())));
                    break;
                case METADATA:
                    cols.add(Column.metadata(c.name(), TypeConverter.toDataType(c.type()), c.metadataKey(), c.isVirtual()));
                    break;
                default:
                    break;
            }
        }
        if (connector == null) {
            throw new PlanningException(position, "table " + name
                    + " names no connector: add 'connector' = '...' (Flink) or type = '...' (Blink) to its WITH clause");
        }
        return new TableDescriptor(name, new TableSchema(cols, primaryKey), connector, options);
    }
}
