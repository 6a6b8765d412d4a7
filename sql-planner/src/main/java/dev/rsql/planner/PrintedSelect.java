package dev.rsql.planner;

import dev.rsql.planner.catalog.CatalogTable;
import dev.rsql.planner.catalog.TableColumn;
import dev.rsql.runtime.config.Options;
import dev.rsql.sql.parser.dml.SqlRichInsert;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A bare {@code SELECT} in a job script, as rsqldb's new era ran it: its rows are printed to the job's output (the
 * job's log under {@code bin/start.sh}) by a {@code print} sink named after the statement's position, in Flink's
 * {@code +I[...]} form prefixed with {@code SELECT@line:column}.
 */
final class PrintedSelect {

    /** The hidden sink table, e.g. {@code $select_3_1}. */
    final CatalogTable table;
    /** INSERT INTO the sink table the SELECT. */
    final SqlRichInsert insert;

    /**
     * @param rowType     the validated row type of {@code query}
     * @param sinkOptions the sink table's options instead of a print sink's, or null
     */
    PrintedSelect(SqlNode query, RelDataType rowType, Map<String, String> sinkOptions) {
        SqlParserPos pos = query.getParserPosition();
        String name = "$select_" + pos.getLineNum() + "_" + pos.getColumnNum();
        List<TableColumn> columns = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (RelDataTypeField f : rowType.getFieldList()) {
            String column = f.getName();
            for (int i = 1; !seen.add(column.toLowerCase(Locale.ROOT)); i++) {
                column = f.getName() + "_" + i;
            }
            columns.add(TableColumn.physical(column, f.getType(), pos));
        }
        Map<String, String> options = new LinkedHashMap<>();
        if (sinkOptions == null) {
            options.put("connector", "print");
            options.put("print-identifier", "SELECT@" + pos.getLineNum() + ":" + pos.getColumnNum());
        } else {
            options.putAll(sinkOptions);
        }
        Options o = new Options(options);
        o.markUsed("connector");
        this.table = new CatalogTable(name, columns, List.of(), null, false, options.get("connector"), o, Map.of(),
                pos);
        this.insert = new SqlRichInsert(pos, SqlNodeList.EMPTY, new SqlIdentifier(name, pos), query, null, null,
                false);
    }
}
