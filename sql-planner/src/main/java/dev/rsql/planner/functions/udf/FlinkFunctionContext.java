package dev.rsql.planner.functions.udf;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.table.functions.FunctionContext;

import java.io.File;
import java.util.HashMap;
import java.util.Map;

/**
 * The Blink/Flink {@link FunctionContext} a user function receives in {@code open}: job parameters come from the
 * task's context (the script's SET values over conf/); metrics are kept in memory (not reported yet).
 */
public final class FlinkFunctionContext implements FunctionContext {

    private final dev.rsql.runtime.graph.FunctionContext task;
    private final MetricGroup metrics = new LocalMetricGroup();

    public FlinkFunctionContext(dev.rsql.runtime.graph.FunctionContext task) {
        this.task = task;
    }

    @Override
    public MetricGroup getMetricGroup() {
        return metrics;
    }

    @Override
    public File getCachedFile(String name) {
        throw new UnsupportedOperationException("this engine has no distributed cache (file '" + name
                + "'): put the file in a jar in ext/ and read it as a class path resource");
    }

    @Override
    public int getNumberOfParallelSubtasks() {
        return Math.max(1, getIndexOfThisSubtask() + 1);
    }

    /** The number at the end of the task id (e.g. the shard), or 0. */
    @Override
    public int getIndexOfThisSubtask() {
        String id = task.taskId();
        if (id == null) {
            return 0;
        }
        int end = id.length();
        int start = end;
        while (start > 0 && Character.isDigit(id.charAt(start - 1))) {
            start--;
        }
        if (start == end || end - start > 9) {
            return 0;
        }
        return Integer.parseInt(id.substring(start, end));
    }

    @Override
    public String getJobParameter(String key, String defaultValue) {
        return task.getJobParameter(key, defaultValue);
    }

    /** Metrics of one function instance, in memory. */
    private static final class LocalMetricGroup implements MetricGroup {
        private final Map<String, Object> metrics = new HashMap<>();
        private final Map<String, LocalMetricGroup> groups = new HashMap<>();

        @Override
        public Counter counter(String name) {
            return counter(name, new SimpleCounter());
        }

        @Override
        public <C extends Counter> C counter(String name, C counter) {
            metrics.put(name, counter);
            return counter;
        }

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            metrics.put(name, gauge);
            return gauge;
        }

        @Override
        public MetricGroup addGroup(String name) {
            return groups.computeIfAbsent(name, k -> new LocalMetricGroup());
        }

        @Override
        public MetricGroup addGroup(String key, String value) {
            return addGroup(key).addGroup(value);
        }
    }
}
