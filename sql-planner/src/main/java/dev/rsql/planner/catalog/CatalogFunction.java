package dev.rsql.planner.catalog;

import org.apache.calcite.sql.parser.SqlParserPos;

/** A function declared by CREATE FUNCTION name AS 'class'. */
public final class CatalogFunction {

    private final String name;
    private final String className;
    private final SqlParserPos position;

    public CatalogFunction(String name, String className, SqlParserPos position) {
        this.name = name;
        this.className = className;
        this.position = position;
    }

    public String name() {
        return name;
    }

    public String className() {
        return className;
    }

    public SqlParserPos position() {
        return position;
    }
}
