package dev.rsql.runtime.connector;

import java.util.List;

/**
 * The dimension-table side of a table: what a lookup join ({@code JOIN dim FOR SYSTEM_TIME AS OF s.proc}) reads.
 * A connector offers one through {@link ConnectorFactory#createLookupSource}. The engine owns caching (options
 * {@code lookup.cache = FULL | PARTIAL | NONE}, rsqldb's {@code cacheTTLMs}): a source only answers point lookups
 * and full scans, and must give current data on every call (a reload scans again).
 *
 * <p>Values are in the engine's internal representation ({@link dev.rsql.runtime.types.DataType}) and rows hold
 * every column of the table in schema order ({@code table().schema().rowType()}).
 *
 * <p>A full cache loads the table with {@link #planScan} and then one {@link #scan} per range, several ranges at
 * once from loader threads; a partial cache or no cache opens one {@link LookupReader} per task.
 */
public interface LookupSource extends AutoCloseable {

    /** False for a source that can only be scanned (a file): it is always fully cached. */
    boolean supportsPointLookup();

    /**
     * The cache used when the table sets none: a connector that reloads by default (rsqldb's {@code type = 'rds'})
     * says {@link LookupCacheMode#FULL}. By default point lookups go uncached (Flink's default) when the source
     * supports them, else the table is fully cached.
     */
    default LookupCacheMode defaultCacheMode() {
        return supportsPointLookup() ? LookupCacheMode.NONE : LookupCacheMode.FULL;
    }

    /**
     * A reader answering lookups of rows whose columns {@code keyColumns} (indices into the table's row type) equal
     * given values. Called once per task; only when {@link #supportsPointLookup()}.
     */
    default LookupReader openReader(int[] keyColumns) throws Exception {
        throw new UnsupportedOperationException("point lookups are not supported by " + description());
    }

    /**
     * Splits a full scan into at most {@code maxRanges} ranges (at least one) that together yield every row once,
     * e.g. id ranges of a database table (rsqldb's {@code idFieldName}) or one range per file. Called at each
     * (re)load; it may query the size of the table.
     */
    List<ScanRange> planScan(int maxRanges) throws Exception;

    /**
     * Reads one range of the last {@link #planScan}, handing each row to {@code out} (which copies what it keeps:
     * the array may be reused once {@code accept} returns). Blocking; called from a loader thread, several ranges in
     * parallel. A failure fails this load only: the previous copy of the table stays in use.
     */
    void scan(ScanRange range, RowConsumer out) throws Exception;

    /** For logs and status, without secrets, e.g. {@code mysql://db:3306/crm table users}. */
    String description();

    @Override
    void close();

    /** One part of a full scan. */
    interface ScanRange {
        /** For the load progress log, e.g. {@code id in [0, 1000000)} or a file path. */
        String description();
    }

    /** Receives the rows of a scan. */
    @FunctionalInterface
    interface RowConsumer {
        void accept(Object[] values) throws Exception;
    }
}
