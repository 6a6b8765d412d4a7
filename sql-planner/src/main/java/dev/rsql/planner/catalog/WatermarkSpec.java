package dev.rsql.planner.catalog;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code WATERMARK FOR column AS strategy}: Blink {@code withOffset(column, ms)} or Flink {@code column - INTERVAL ...}.
 */
public record WatermarkSpec(String column, SqlNode strategy, SqlParserPos position) {
}
