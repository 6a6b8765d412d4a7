package dev.rsql.runtime.connector.jdbc;

import java.util.List;
import java.util.stream.Collectors;

/** The SQL text the connector sends, in MySQL's dialect (which MariaDB shares). Names are quoted with backticks. */
final class MySqlStatements {

    private MySqlStatements() {
    }

    static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** {@code db.t} as {@code `db`.`t`}. */
    static String quoteTable(String table) {
        int dot = table.indexOf('.');
        return dot < 0 ? quote(table) : quote(table.substring(0, dot)) + "." + quote(table.substring(dot + 1));
    }

    private static String columnList(List<String> columns) {
        return columns.stream().map(MySqlStatements::quote).collect(Collectors.joining(", "));
    }

    private static String params(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }

    static String insert(String table, List<String> columns) {
        return "INSERT INTO " + quoteTable(table) + " (" + columnList(columns) + ") VALUES (" + params(columns.size())
                + ")";
    }

    /**
     * An idempotent write of a whole row: the row is inserted, or the row with its key is overwritten. A table whose
     * columns are all key columns has nothing to overwrite; the key is then assigned to itself.
     */
    static String upsert(String table, List<String> columns, List<String> key) {
        List<String> rest = columns.stream().filter(c -> !key.contains(c)).collect(Collectors.toList());
        List<String> updated = rest.isEmpty() ? key : rest;
        return insert(table, columns) + " ON DUPLICATE KEY UPDATE " + updated.stream()
                .map(c -> quote(c) + " = VALUES(" + quote(c) + ")").collect(Collectors.joining(", "));
    }

    static String delete(String table, List<String> key) {
        return "DELETE FROM " + quoteTable(table) + " WHERE " + equalities(key);
    }

    private static String equalities(List<String> columns) {
        return columns.stream().map(c -> quote(c) + " = ?").collect(Collectors.joining(" AND "));
    }

    /** The table's rows as a derived table: the rsqldb {@code FROM ... WHERE ...} form may carry its own filter. */
    private static String source(List<String> columns, String from) {
        return "(SELECT " + columnList(columns) + " " + from + ") AS d";
    }

    static String selectAll(List<String> columns, String from) {
        return "SELECT " + columnList(columns) + " FROM " + source(columns, from);
    }

    static String selectByKey(List<String> columns, String from, List<String> key) {
        return selectAll(columns, from) + " WHERE " + equalities(key);
    }

    static String minMax(List<String> columns, String from, String column) {
        return "SELECT MIN(" + quote(column) + "), MAX(" + quote(column) + ") FROM " + source(columns, from);
    }

    /** Rows whose {@code column} is in {@code [?, ?)}; the first range of a scan also takes the NULLs. */
    static String selectRange(List<String> columns, String from, String column, boolean withNulls, boolean last) {
        String c = quote(column);
        return selectAll(columns, from) + " WHERE (" + c + " >= ? AND " + c + (last ? " <= ?" : " < ?") + ")"
                + (withNulls ? " OR " + c + " IS NULL" : "");
    }
}
