package dev.rsql.runtime.connector.redis;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.RowType;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;

/**
 * The options of a {@code redis} table, with Blink's names and Flink-style ones: {@code host} (default
 * {@code 127.0.0.1}), {@code port} (6379), {@code password} (secret: never logged), {@code dbNum} /
 * {@code database} (0), {@code mode} (see {@link RedisMode}, default {@code string}), {@code ignoreDelete} /
 * {@code sink.ignore-delete} (false), {@code sink.buffer-flush.max-rows} / {@code batchSize} (500 commands per
 * round trip), {@code timeout} (the connection's and each reply's, default 10 s), {@code sink.max-retries} (3: a
 * write that failed on the connection is sent again on a new one, which redis commands of a row allow as they are
 * idempotent).
 */
record RedisOptions(String table, String host, int port, String password, int database, RedisMode mode,
                    boolean ignoreDelete, int batchSize, int timeoutMillis, int maxRetries) {

    static RedisOptions of(TableDescriptor table) {
        Options o = table.options();
        String host = o.getOrDefault("127.0.0.1", "host", "hostname");
        int port = o.getInt(6379, "port");
        if (port < 1 || port > 65535) {
            throw new ConfigException("table " + table.name() + ": option 'port' must be between 1 and 65535, got "
                    + port);
        }
        int database = o.getInt(0, "dbNum", "database", "db");
        if (database < 0) {
            throw new ConfigException("table " + table.name() + ": option 'dbNum' must not be negative");
        }
        String modeName = o.getOrDefault("string", "mode", "data-type").trim().toLowerCase(Locale.ROOT);
        RedisMode mode = RedisMode.of(modeName);
        if (mode == null) {
            throw new ConfigException("mode", "table " + table.name() + ": option 'mode' must be string, hashmap or "
                    + "hash, got '" + modeName + "'", null);
        }
        RowType columns = table.schema().physicalRowType();
        mode.check(table.name(), columns);
        int batch = o.getInt(500, "sink.buffer-flush.max-rows", "batchSize");
        if (batch < 1) {
            throw new ConfigException("table " + table.name() + ": option 'sink.buffer-flush.max-rows' must be "
                    + "at least 1, got " + batch);
        }
        Duration timeout = o.getDuration(Duration.ofSeconds(10), "timeout", "connect.timeout");
        int retries = o.getInt(3, "sink.max-retries", "maxRetryTimes");
        o.markUsed("clusterMode");
        if (o.getBoolean(false, "clusterMode")) {
            throw new ConfigException("clusterMode", "table " + table.name() + ": Redis Cluster is not supported yet; "
                    + "give the address of one node (or a proxy)", null);
        }
        return new RedisOptions(table.name(), host, port, o.get("password"), database, mode,
                o.getBoolean(false, "ignoreDelete", "sink.ignore-delete"), batch,
                (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()), Math.max(0, retries));
    }

    RedisConnection connect() throws IOException {
        return new RedisConnection(host, port, password, database, timeoutMillis);
    }

    /** For logs and errors, without the password. */
    String describe() {
        return "redis://" + host + ":" + port + "/" + database + " (mode " + mode.name().toLowerCase(Locale.ROOT) + ")";
    }
}
