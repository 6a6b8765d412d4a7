package dev.rsql.runtime.connector.redis;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.LookupReader;
import dev.rsql.runtime.connector.LookupSource;
import dev.rsql.runtime.types.RowType;

import java.util.Arrays;
import java.util.List;

/**
 * A {@code redis} table as a dimension table: looked up key by key ({@link RedisLookupReader}), uncached by default
 * or behind the engine's partial cache ({@code 'lookup.cache' = 'PARTIAL'}). Redis has no table to scan, so a full
 * cache is refused. The join must give the key column (in mode hashmap, also the field column, or not: then every
 * field of the hash is a row).
 */
final class RedisLookupSource implements LookupSource {

    private final RedisOptions options;
    private final RowType columns;

    RedisLookupSource(ConnectorContext context) {
        this.options = RedisOptions.of(context.table());
        this.columns = context.table().schema().physicalRowType();
        if ("FULL".equalsIgnoreCase(context.options().get("lookup.cache"))) {
            throw new ConfigException("lookup.cache", "table " + options.table() + ": a redis table is looked up key "
                    + "by key and cannot be cached whole; use 'lookup.cache' = 'PARTIAL'", null);
        }
        if (context.table().schema().columns().size() != columns.size()) {
            throw new ConfigException("table " + options.table() + ": a redis dimension table has no metadata or "
                    + "computed columns");
        }
    }

    @Override
    public boolean supportsPointLookup() {
        return true;
    }

    @Override
    public LookupReader openReader(int[] keyColumns) throws Exception {
        int[] sorted = keyColumns.clone();
        Arrays.sort(sorted);
        boolean byKey = Arrays.equals(sorted, new int[]{0});
        boolean byField = options.mode() == RedisMode.HASHMAP && Arrays.equals(sorted, new int[]{0, 1});
        if (!byKey && !byField) {
            throw new ConfigException("table " + options.table() + ": a redis table is looked up by its key column "
                    + columns.name(0) + (options.mode() == RedisMode.HASHMAP ? " (and its field column "
                    + columns.name(1) + ")" : "") + ": join it ON " + columns.name(0) + " = ...");
        }
        return new RedisLookupReader(options, columns, byField && keyColumns[0] == 1);
    }

    @Override
    public List<ScanRange> planScan(int maxRanges) {
        throw new UnsupportedOperationException("a redis table cannot be scanned");
    }

    @Override
    public void scan(ScanRange range, RowConsumer out) {
        throw new UnsupportedOperationException("a redis table cannot be scanned");
    }

    @Override
    public String description() {
        return options.describe();
    }

    @Override
    public void close() {
    }
}
