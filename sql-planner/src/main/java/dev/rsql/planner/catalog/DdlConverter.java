package dev.rsql.planner.catalog;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.calcite.PlannerSession;
import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.config.Placeholders;
import dev.rsql.sql.parser.ddl.SqlComputedColumn;
import dev.rsql.sql.parser.ddl.SqlCreateFunction;
import dev.rsql.sql.parser.ddl.SqlCreateTable;
import dev.rsql.sql.parser.ddl.SqlCreateView;
import dev.rsql.sql.parser.ddl.SqlMetadataColumn;
import dev.rsql.sql.parser.ddl.SqlRegularColumn;
import dev.rsql.sql.parser.ddl.SqlTableColumn;
import dev.rsql.sql.parser.ddl.SqlTableConstraint;
import dev.rsql.sql.parser.ddl.SqlTableOption;
import dev.rsql.sql.parser.ddl.SqlWatermark;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** Turns CREATE TABLE / VIEW / FUNCTION statements into catalog entries, checking names and types. */
public final class DdlConverter {

    private final PlannerSession session;
    private final Function<String, String> placeholders;

    /**
     * @param placeholders resolves {@code ${name}} in WITH values (SET values, engine settings, environment)
     */
    public DdlConverter(PlannerSession session, Function<String, String> placeholders) {
        this.session = session;
        this.placeholders = placeholders;
    }

    public CatalogTable table(SqlCreateTable ddl) {
        String tableName = simpleName(ddl.getName());
        List<TableColumn> columns = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (SqlTableColumn c : ddl.getColumns()) {
            String name = c.getName().getSimple();
            if (!names.add(name.toLowerCase(Locale.ROOT))) {
                throw new PlanningException(c.getParserPosition(), "table " + tableName + " declares column " + name + " twice");
            }
            columns.add(column(c));
        }
        List<String> primaryKey = new ArrayList<>();
        SqlTableConstraint pk = ddl.getPrimaryKey();
        if (pk != null) {
            for (String col : pk.getColumnNames()) {
                primaryKey.add(resolveColumn(columns, col, tableName, pk.getParserPosition()));
            }
        }
        WatermarkSpec watermark = null;
        SqlWatermark wm = ddl.getWatermark();
        if (wm != null) {
            String col = resolveColumn(columns, wm.getEventTimeColumn().getSimple(), tableName, wm.getParserPosition());
            watermark = new WatermarkSpec(col, wm.getStrategy(), wm.getParserPosition());
        }
        Map<String, String> raw = new LinkedHashMap<>();
        Map<String, SqlParserPos> optionPositions = new HashMap<>();
        Set<String> substituted = new HashSet<>();
        Set<String> expansions = new HashSet<>();
        Function<String, String> recorded = name -> {
            String v = placeholders.apply(name);
            if (v != null) {
                expansions.add(v);
            }
            return v;
        };
        for (SqlTableOption o : ddl.getOptions()) {
            optionPositions.put(o.getKeyString().toLowerCase(Locale.ROOT), o.getParserPosition());
            try {
                String value = Placeholders.resolve(o.getValueString(), recorded);
                if (!value.equals(o.getValueString())) {
                    substituted.add(o.getKeyString()); // from the environment or a setting: never shown
                }
                raw.put(o.getKeyString(), value);
            } catch (ConfigException e) {
                throw new PlanningException(o.getParserPosition(), "table " + tableName + ", option '"
                        + o.getKeyString() + "': " + e.getMessage());
            }
        }
        Options options = new Options(raw, substituted, expansions);
        String connector = options.get("connector", "type");
        if (connector == null) {
            connector = ImpliedConnector.of(options);
        }
        List<CatalogTable.Index> indexes = new ArrayList<>();
        for (dev.rsql.sql.parser.ddl.SqlTableIndex index : ddl.getIndexes()) {
            List<String> cols = new ArrayList<>();
            for (String col : index.getColumnNames()) {
                cols.add(resolveColumn(columns, col, tableName, index.getParserPosition()));
            }
            indexes.add(new CatalogTable.Index(cols, index.isUnique()));
        }
        return new CatalogTable(tableName, columns, primaryKey, watermark, ddl.isDimensionTable(), connector, options,
                optionPositions, ddl.getParserPosition()).withIndexes(indexes);
    }

    private TableColumn column(SqlTableColumn c) {
        String name = c.getName().getSimple();
        if (c instanceof SqlComputedColumn) {
            return TableColumn.computed(name, ((SqlComputedColumn) c).getExpression(), c.getParserPosition());
        }
        if (c instanceof SqlMetadataColumn) {
            SqlMetadataColumn m = (SqlMetadataColumn) c;
            String key = m.getMetadataKey() == null ? name : m.getMetadataKey();
            return TableColumn.metadata(name, type(m.getType(), c), key, m.isVirtual(), c.getParserPosition());
        }
        return TableColumn.physical(name, type(((SqlRegularColumn) c).getType(), c), c.getParserPosition());
    }

    private org.apache.calcite.rel.type.RelDataType type(org.apache.calcite.sql.SqlDataTypeSpec spec, SqlTableColumn c) {
        try {
            return session.deriveType(spec);
        } catch (RuntimeException e) {
            throw new PlanningException(c.getParserPosition(), "column " + c.getName().getSimple() + ": unknown type "
                    + spec + " (" + e.getMessage() + ")", e);
        }
    }

    private static String resolveColumn(List<TableColumn> columns, String name, String table,
                                        SqlParserPos pos) {
        for (TableColumn c : columns) {
            if (c.name().equalsIgnoreCase(name)) {
                return c.name();
            }
        }
        throw new PlanningException(pos, "table " + table + " has no column " + name);
    }

    public CatalogView view(SqlCreateView ddl) {
        List<String> columnNames = new ArrayList<>();
        for (SqlNode n : ddl.getColumnList()) {
            columnNames.add(((SqlIdentifier) n).getSimple());
        }
        return new CatalogView(simpleName(ddl.getName()), ddl.getQuery(), columnNames, ddl.getParserPosition());
    }

    public CatalogFunction function(SqlCreateFunction ddl) {
        return new CatalogFunction(simpleName(ddl.getName()), ddl.getClassName(), ddl.getParserPosition());
    }

    /** The last part of a possibly qualified name ({@code catalog.db.t} names table {@code t}). */
    private static String simpleName(SqlIdentifier id) {
        return id.names.get(id.names.size() - 1);
    }
}
