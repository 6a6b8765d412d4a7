package org.apache.flink.table.functions;

/** How a function's result moves with its input (Blink API; informational only in this engine). */
public enum Monotonicity {
    INCREASING, STRICTLY_INCREASING, DECREASING, STRICTLY_DECREASING, CONSTANT, NOT_MONOTONIC
}
