package dev.rsql.runtime.lookup;

/**
 * What {@code status} shows of a fully cached dimension table: the copy lookups use, and the load under way.
 *
 * @param loadingRows rows read so far by the load under way, or -1 when none is
 * @param loadedMillis when the copy in use finished loading, 0 before the first load ends
 * @param lastError why the last reload failed (the older copy stays in use), or null
 */
public record DimensionTableStatus(String table, long rows, long bytes, int loads, long loadingRows,
                                   long loadedMillis, long loadMillis, String lastError) {
}
