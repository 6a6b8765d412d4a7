package dev.rsql.runtime.graph;

/** What a function instance can learn about where it runs. */
public interface FunctionContext {

    /** A job parameter (SET in the script, or conf/), or the default. */
    String getJobParameter(String key, String defaultValue);

    /** The task the function runs in. */
    String taskId();
}
