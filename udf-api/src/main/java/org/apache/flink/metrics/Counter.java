package org.apache.flink.metrics;

/** A count that goes up and down. */
public interface Counter extends Metric {

    void inc();

    void inc(long n);

    void dec();

    void dec(long n);

    long getCount();
}
