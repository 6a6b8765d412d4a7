package dev.rsql.runtime.operator;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.graph.FunctionContext;

/** What an operator learns about the task it runs in. */
public interface OperatorContext extends FunctionContext {

    /** The job's parameters (SET values over engine settings). */
    Options parameters();

    String jobName();

    @Override
    default String getJobParameter(String key, String defaultValue) {
        return parameters().getOrDefault(defaultValue, key);
    }
}
