package dev.rsql.planner.catalog;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code WATERMARK FOR column AS strategy}: Blink {@code withOffset(column, ms)} or Flink {@code column - INTERVAL ...}. */
public final class WatermarkSpec {

    private final String column;
    private final SqlNode strategy;
    private final SqlParserPos position;

    public WatermarkSpec(String column, SqlNode strategy, SqlParserPos position) {
        this.column = column;
        this.strategy = strategy;
        this.position = position;
    }

    public String column() {
        return column;
    }

    public SqlNode strategy() {
        return strategy;
    }

    public SqlParserPos position() {
        return position;
    }
}
