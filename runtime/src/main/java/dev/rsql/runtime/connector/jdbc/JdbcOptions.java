package dev.rsql.runtime.connector.jdbc;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;

import java.time.Duration;
import java.util.Locale;

/**
 * The options of a JDBC table in Flink's names ({@code 'connector' = 'jdbc'}: {@code url}, {@code table-name},
 * {@code username}, {@code password}, {@code driver}, {@code sink.buffer-flush.max-rows},
 * {@code sink.buffer-flush.interval}, {@code sink.max-retries}, {@code lookup.max-retries},
 * {@code scan.partition.column}, {@code scan.fetch-size}) and rsqldb's ({@code type = 'rds' | 'mysql' | 'db'}:
 * {@code url}, {@code tableName}, {@code userName}, {@code password}, {@code jdbcDriver}, {@code batchSize},
 * {@code autoFlushTimeGap}, {@code idFieldName}). rsqldb's {@code tableName} may be a {@code FROM} clause
 * ({@code 'from users where active = 1'}): a dimension table then loads that subset.
 */
record JdbcOptions(JdbcUrl url, String table, String fromClause, String user, String password, String driver,
                   int flushMaxRows, Duration flushInterval, int maxRetries, Duration retryBackoff,
                   int lookupMaxRetries, String partitionColumn, int fetchSize, int poolSize) {

    static JdbcOptions of(Options o) {
        JdbcUrl url = JdbcUrl.parse(o.require("url"));
        String tableName = o.require("table-name", "tableName", "table").trim();
        String table;
        String from;
        if (tableName.toLowerCase(Locale.ROOT).startsWith("from ")) {
            from = tableName;
            String rest = tableName.substring(5).trim();
            int end = 0;
            while (end < rest.length() && !Character.isWhitespace(rest.charAt(end))) {
                end++;
            }
            table = unquote(rest.substring(0, end));
        } else {
            table = unquote(tableName);
            from = "FROM " + MySqlStatements.quoteTable(table);
        }
        String user = o.get("username", "userName", "user");
        String password = o.get("password");
        if (password != null && password.isEmpty()) {
            password = null;
        }
        if (user != null && user.isEmpty()) {
            user = null;
        }
        int maxRows = o.getInt(100, "sink.buffer-flush.max-rows", "batchSize", "autoFlushSize");
        if (maxRows < 1) {
            throw ConfigException.ofOption("sink.buffer-flush.max-rows", "option 'sink.buffer-flush.max-rows' must be"
                    + " at least 1, got " + maxRows);
        }
        Duration interval = o.getDuration(Duration.ofSeconds(1), "sink.buffer-flush.interval", "autoFlushTimeGap");
        int retries = o.getInt(3, "sink.max-retries", "maxRetries");
        int lookupRetries = o.getInt(3, "lookup.max-retries");
        if (retries < 0 || lookupRetries < 0) {
            throw ConfigException.ofOption("sink.max-retries", "option 'sink.max-retries' / 'lookup.max-retries'"
                    + " must not be negative");
        }
        Duration backoff = o.getDuration(Duration.ofMillis(200), "sink.retry-backoff", "retry-backoff");
        return new JdbcOptions(url, table, from, user, password, o.get("driver", "jdbcDriver"), maxRows, interval,
                retries, backoff, lookupRetries, o.get("scan.partition.column", "idFieldName"),
                o.getInt(10_000, "scan.fetch-size"), o.getInt(4, "lookup.connection-pool-size"));
    }

    private static String unquote(String name) {
        String n = name.trim();
        return n.replace("`", "");
    }

    /** Where the table is, for logs and errors: the URL without credentials, and the table. */
    String describe() {
        return url.shown() + " table " + table;
    }

    /** {@code text} with the password and the URL's credentials masked: for every message built from a driver's. */
    String redact(String text) {
        String out = url.redact(text);
        if (out != null && password != null) {
            out = out.replace(password, dev.rsql.runtime.config.Secrets.MASK);
        }
        return out;
    }
}
