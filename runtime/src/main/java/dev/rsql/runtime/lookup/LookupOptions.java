package dev.rsql.runtime.lookup;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.LookupCacheMode;

import java.time.Duration;
import java.util.Locale;

/**
 * How a dimension table is cached, from its WITH options. Flink's: {@code lookup.cache} ({@code FULL | PARTIAL |
 * NONE}), {@code lookup.partial-cache.expire-after-write}, {@code .expire-after-access}, {@code .max-rows},
 * {@code .cache-missing-key} (default true), {@code lookup.full-cache.reload-strategy} ({@code PERIODIC}) with
 * {@code lookup.full-cache.periodic-reload.interval}; the legacy JDBC {@code lookup.cache.max-rows} /
 * {@code lookup.cache.ttl} mean a partial cache. rsqldb's: {@code cacheTTLMs} is the reload period of the full
 * cache it always uses (at least 60 s, as rsqldb's dimension join clamps it; default 30 min); {@code isLarge} is
 * accepted (the full cache is compact anyway). Engine's: {@code lookup.full-cache.load-threads} (default 4), the
 * parallel range loads of a (re)load.
 *
 * @param reloadInterval 0 when the full cache is never reloaded
 */
public record LookupOptions(LookupCacheMode mode, long maxRows, long expireAfterWriteMillis,
                            long expireAfterAccessMillis, boolean cacheMissingKey, long reloadIntervalMillis,
                            int loadThreads) {

    private static final Duration RSQLDB_DEFAULT_RELOAD = Duration.ofMinutes(30);
    private static final long RSQLDB_MIN_RELOAD_MILLIS = 60_000;

    /** The table's options; {@code defaultMode} applies when none chooses a cache. */
    public static LookupOptions of(Options o, LookupCacheMode defaultMode) {
        String modeValue = o.get("lookup.cache");
        boolean legacyPartial = o.get("lookup.cache.max-rows") != null || o.get("lookup.cache.ttl") != null;
        boolean rsqldb = o.get("cacheTTLMs") != null || o.get("isLarge") != null;
        LookupCacheMode mode;
        if (modeValue != null) {
            try {
                mode = LookupCacheMode.valueOf(modeValue.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw ConfigException.ofOption("lookup.cache", "option 'lookup.cache' must be FULL, PARTIAL or NONE, "
                        + "got '" + modeValue + "'");
            }
        } else if (legacyPartial) {
            mode = LookupCacheMode.PARTIAL;
        } else if (rsqldb) {
            mode = LookupCacheMode.FULL;
        } else {
            mode = defaultMode;
        }
        o.getBoolean(false, "isLarge");
        long maxRows = o.getLong(Long.MAX_VALUE, "lookup.partial-cache.max-rows", "lookup.cache.max-rows");
        if (maxRows <= 0) {
            throw ConfigException.ofOption("lookup.partial-cache.max-rows",
                    "option 'lookup.partial-cache.max-rows' must be positive, got " + maxRows);
        }
        long write = o.getDuration(Duration.ZERO, "lookup.partial-cache.expire-after-write", "lookup.cache.ttl")
                .toMillis();
        long access = o.getDuration(Duration.ZERO, "lookup.partial-cache.expire-after-access").toMillis();
        boolean missing = o.getBoolean(true, "lookup.partial-cache.cache-missing-key",
                "lookup.cache.caching-missing-key");
        String strategy = o.getOrDefault("PERIODIC", "lookup.full-cache.reload-strategy");
        if (!strategy.trim().equalsIgnoreCase("PERIODIC")) {
            throw ConfigException.ofOption("lookup.full-cache.reload-strategy", "option "
                    + "'lookup.full-cache.reload-strategy' supports PERIODIC only, got '" + strategy + "'");
        }
        o.getOrDefault("FIXED_DELAY", "lookup.full-cache.periodic-reload.schedule-mode");
        long reload;
        if (o.get("lookup.full-cache.periodic-reload.interval") != null) {
            reload = o.getDuration(Duration.ZERO, "lookup.full-cache.periodic-reload.interval").toMillis();
        } else if (rsqldb) {
            reload = Math.max(RSQLDB_MIN_RELOAD_MILLIS, o.getLong(RSQLDB_DEFAULT_RELOAD.toMillis(), "cacheTTLMs"));
        } else {
            reload = 0;
        }
        int threads = o.getInt(4, "lookup.full-cache.load-threads");
        if (threads <= 0) {
            throw ConfigException.ofOption("lookup.full-cache.load-threads",
                    "option 'lookup.full-cache.load-threads' must be positive, got " + threads);
        }
        return new LookupOptions(mode, maxRows, write, access, missing, reload, threads);
    }
}
