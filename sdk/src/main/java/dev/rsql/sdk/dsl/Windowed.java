package dev.rsql.sdk.dsl;

/**
 * The result of an aggregation per key and window: the key, the aggregate, and the window's bounds in epoch
 * milliseconds, {@code [windowStart, windowEnd)}.
 */
public record Windowed<K, V>(K key, V value, long windowStart, long windowEnd) {
}
