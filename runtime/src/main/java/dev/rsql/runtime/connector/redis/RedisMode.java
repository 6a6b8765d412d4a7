package dev.rsql.runtime.connector.redis;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.types.RowType;

/**
 * How a table's rows are stored in Redis. The first column is the Redis key in every mode; values are stored as text
 * (numbers in decimal, timestamps as {@code yyyy-MM-dd HH:mm:ss.SSS}) and read back into the column's type.
 */
enum RedisMode {
    /** Blink's {@code string}: columns (key, value); a row is {@code SET key value}. */
    STRING,
    /** Blink's {@code hashmap}: columns (key, field, value); a row is one field of the hash: {@code HSET key field value}. */
    HASHMAP,
    /**
     * A row per hash: columns (key, c1, …, cn); a row is {@code HSET key c1 v1 … cn vn} (a NULL value removes its
     * field), as profiles and lists of a risk-control team are kept.
     */
    HASH;

    static RedisMode of(String name) {
        return switch (name) {
            case "string" -> STRING;
            case "hashmap" -> HASHMAP;
            case "hash" -> HASH;
            default -> null;
        };
    }

    /** Refuses a table whose columns do not fit the mode. */
    void check(String table, RowType columns) {
        int n = columns.size();
        String need = switch (this) {
            case STRING -> n == 2 ? null : "two columns (key, value)";
            case HASHMAP -> n == 3 ? null : "three columns (key, field, value)";
            case HASH -> n >= 2 ? null : "a key column and at least one field column";
        };
        if (need != null) {
            throw new ConfigException("table " + table + ": a redis table in mode " + name().toLowerCase()
                    + " has " + need + ", not " + n);
        }
        if (!columns.type(0).kind().isCharacter() && !columns.type(0).kind().isNumeric()) {
            throw new ConfigException("table " + table + ": the redis key column " + columns.name(0)
                    + " must be a string or a number, not " + columns.type(0));
        }
    }
}
