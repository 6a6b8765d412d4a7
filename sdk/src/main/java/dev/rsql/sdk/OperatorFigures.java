package dev.rsql.sdk;

/**
 * One operator of a job (a filter, an aggregation, a sink …), its rows summed over this engine's tasks: rows in, rows
 * out and rows that came behind the watermark. {@code operator} is the graph node's id, as {@code explain} shows it.
 */
public record OperatorFigures(String operator, String kind, long recordsIn, long recordsOut, long lateRecords) {
}
