package org.apache.flink.table.functions;

import org.apache.flink.metrics.MetricGroup;

import java.io.File;

/**
 * What a user-defined function learns in {@link UserDefinedFunction#open}: job parameters (the script's SET values
 * over the engine's conf/), metrics, and where it runs. An interface, as in Blink.
 */
public interface FunctionContext {

    /** Metrics of the task the function runs in. */
    MetricGroup getMetricGroup();

    /** Blink's distributed cache; this engine has none, so this throws. */
    File getCachedFile(String name);

    /** The number of tasks of the function's operator. */
    int getNumberOfParallelSubtasks();

    /** The index of this task among {@link #getNumberOfParallelSubtasks()}, from 0. */
    int getIndexOfThisSubtask();

    /**
     * A job parameter: set by {@code SET 'key' = 'value'} in the script or in the engine's conf/, else
     * {@code defaultValue}.
     */
    String getJobParameter(String key, String defaultValue);
}
