package dev.rsql.runtime.connector;

/** How the engine caches a dimension table (Flink's option {@code lookup.cache}). */
public enum LookupCacheMode {
    /** The whole table (or its filtered subset) in a compact in-memory store, reloaded on a schedule. */
    FULL,
    /** An LRU cache with a time to live in front of point lookups. */
    PARTIAL,
    /** Every lookup queries the source. */
    NONE
}
