package org.apache.flink.metrics;

/** A metric read on demand. */
public interface Gauge<T> extends Metric {

    T getValue();
}
