package org.apache.flink.util;

/** Receives the records a function emits. */
public interface Collector<T> {

    void collect(T record);

    void close();
}
