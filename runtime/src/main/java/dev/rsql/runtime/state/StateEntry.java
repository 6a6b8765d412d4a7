package dev.rsql.runtime.state;

/** One stored value with the key and namespace it is stored under. */
public record StateEntry<V>(byte[] key, byte[] namespace, V value) {
}
