package dev.rsql.runtime.operator;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.FunctionContext;
import dev.rsql.runtime.graph.FunctionException;
import dev.rsql.runtime.state.KeyedStateBackend;
import dev.rsql.runtime.table.TableDescriptor;

/** What an operator learns about, and can ask of, the task it runs in. */
public interface OperatorContext extends FunctionContext {

    /** The job's parameters (SET values over engine settings). */
    Options parameters();

    String jobName();

    @Override
    default String getJobParameter(String key, String defaultValue) {
        return parameters().getOrDefault(defaultValue, key);
    }

    /** The task's keyed state (opened on first use). Only operators behind an exchange have keyed state. */
    KeyedStateBackend stateBackend();

    /** The watermark this task had reached at the checkpoint it was restored from, or {@code Long.MIN_VALUE}. */
    long restoredWatermark();

    /** Asks for {@link Operator#onProcessingTime} to be called once processing time reaches {@code time}. */
    void requestProcessingTime(long time);

    /**
     * A function failed on a row. True when the error policy of the rows' source tables is to skip (the row has been
     * counted, logged and dead-lettered, and the operator drops it); false when the failure must fail the task.
     */
    boolean skipFailedRow(Row row, FunctionException failure) throws Exception;

    /** A writer of this task for a table that is not a sink of the graph, e.g. a late-data table. */
    SinkWriter sideOutput(TableDescriptor table) throws Exception;

    /** The task's view of a lookup join's dimension table (shared by the job's tasks when fully cached). */
    default dev.rsql.runtime.lookup.LookupTable lookupTable(dev.rsql.runtime.graph.LookupJoinNode node)
            throws Exception {
        throw new UnsupportedOperationException("no dimension tables in this context");
    }
}
