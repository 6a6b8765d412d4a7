package dev.rsql.sdk.dsl;

/** A key and a value: what an aggregation per key emits (Kafka Streams' {@code KeyValue}). */
public record KeyValue<K, V>(K key, V value) {

    public static <K, V> KeyValue<K, V> pair(K key, V value) {
        return new KeyValue<>(key, value);
    }
}
