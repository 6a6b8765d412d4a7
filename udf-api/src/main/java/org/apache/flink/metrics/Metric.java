package org.apache.flink.metrics;

/** Marker of metric types. */
public interface Metric {
}
