package dev.rsql.planner.catalog;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.List;

/** A view declared by CREATE VIEW: a named query, expanded where it is read. */
public final class CatalogView {

    private final String name;
    private final SqlNode query;
    private final List<String> columnNames;    // empty: the query's own names
    private final SqlParserPos position;

    public CatalogView(String name, SqlNode query, List<String> columnNames, SqlParserPos position) {
        this.name = name;
        this.query = query;
        this.columnNames = List.copyOf(columnNames);
        this.position = position;
    }

    public String name() {
        return name;
    }

    /** The query as parsed; copy it before validating (validation rewrites nodes). */
    public SqlNode query() {
        return query;
    }

    public List<String> columnNames() {
        return columnNames;
    }

    public SqlParserPos position() {
        return position;
    }
}
