package dev.rsql.runtime.testing;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.FunctionException;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.state.KeyedStateBackend;
import dev.rsql.runtime.table.TableDescriptor;

/**
 * The context of an operator driven directly by a test, on the test's thread: its keyed state is the given backend,
 * processing-time requests are ignored and a failing row fails.
 */
public final class TestOperatorContext implements OperatorContext {

    private final KeyedStateBackend backend;
    private final Options parameters;

    public TestOperatorContext(KeyedStateBackend backend) {
        this(backend, Options.empty());
    }

    /** With the job settings {@code parameters}. */
    public TestOperatorContext(KeyedStateBackend backend, Options parameters) {
        this.backend = backend;
        this.parameters = parameters;
    }

    @Override
    public Options parameters() {
        return parameters;
    }

    @Override
    public String jobName() {
        return "t";
    }

    @Override
    public String taskId() {
        return "t#0";
    }

    @Override
    public KeyedStateBackend stateBackend() {
        return backend;
    }

    @Override
    public long restoredWatermark() {
        return Long.MIN_VALUE;
    }

    @Override
    public void requestProcessingTime(long time) {
    }

    @Override
    public boolean skipFailedRow(Row row, FunctionException failure) {
        return false;
    }

    @Override
    public SinkWriter sideOutput(TableDescriptor table) {
        throw new UnsupportedOperationException("no side outputs in a test context");
    }
}
