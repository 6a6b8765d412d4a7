package dev.rsql.planner.catalog;

import org.apache.calcite.sql.parser.SqlParserPos;

/** A function declared by CREATE FUNCTION name AS 'class'. */
public record CatalogFunction(String name, String className, SqlParserPos position) {
}
