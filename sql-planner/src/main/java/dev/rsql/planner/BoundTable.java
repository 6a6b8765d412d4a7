package dev.rsql.planner;

import dev.rsql.planner.catalog.CatalogTable;
import dev.rsql.planner.catalog.TableColumn;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.types.RowType;
import dev.rsql.sql.parser.dml.SqlRichInsert;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The tables of embedded planning that are no connector's: a table over a graph node (its DDL), and the placeholder a
 * query is written into so that it is planned as an INSERT whose sink is never built ({@code $query} is no connector,
 * so the query may be a changelog).
 */
final class BoundTable {

    /** The connector name of both kinds; never looked up, as neither becomes a source or sink node. */
    static final String CONNECTOR = "$graph";

    /** The placeholder table. */
    final CatalogTable table;
    /** INSERT INTO the placeholder the query. */
    final SqlRichInsert insert;

    private BoundTable(CatalogTable table, SqlRichInsert insert) {
        this.table = table;
        this.insert = insert;
    }

    /** CREATE TABLE over the columns of a graph node, with a watermark {@code delay} ms behind {@code rowtime}. */
    static String ddl(String name, RowType columns, String rowtime, long watermarkDelayMillis) {
        StringBuilder sb = new StringBuilder("CREATE TABLE ").append(quote(name)).append(" (");
        for (int i = 0; i < columns.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(quote(columns.name(i))).append(' ')
                    .append(columns.type(i).toString().replace(" NOT NULL", ""));
        }
        if (rowtime != null) {
            sb.append(", WATERMARK FOR ").append(quote(rowtime)).append(" AS withOffset(").append(quote(rowtime))
                    .append(", ").append(watermarkDelayMillis).append(')');
        }
        return sb.append(") WITH ('connector' = '").append(CONNECTOR).append("')").toString();
    }

    private static String quote(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }

    /** The placeholder {@code name} for a query of the given (validated) row type. */
    static BoundTable querySink(String name, SqlNode query, RelDataType rowType) {
        SqlParserPos pos = query.getParserPosition();
        List<TableColumn> columns = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (RelDataTypeField f : rowType.getFieldList()) {
            String column = f.getName();
            for (int i = 1; !seen.add(column.toLowerCase(Locale.ROOT)); i++) {
                column = f.getName() + "_" + i;
            }
            columns.add(TableColumn.physical(column, f.getType(), pos));
        }
        Options options = new Options(Map.of("connector", CONNECTOR));
        options.markUsed("connector");
        CatalogTable table = new CatalogTable(name, columns, List.of(), null, false, CONNECTOR, options, Map.of(), pos);
        return new BoundTable(table, new SqlRichInsert(pos, SqlNodeList.EMPTY, new SqlIdentifier(name, pos), query,
                null, null, false));
    }
}
