package org.apache.flink.metrics;

/**
 * Where a function registers metrics. The engine keeps them in memory per function instance; they are not reported
 * anywhere yet, so UDFs that register metrics run unchanged.
 */
public interface MetricGroup {

    Counter counter(String name);

    <C extends Counter> C counter(String name, C counter);

    <T, G extends Gauge<T>> G gauge(String name, G gauge);

    MetricGroup addGroup(String name);

    MetricGroup addGroup(String key, String value);
}
