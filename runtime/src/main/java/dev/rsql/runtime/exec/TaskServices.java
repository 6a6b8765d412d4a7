package dev.rsql.runtime.exec;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.lookup.DimensionTables;
import dev.rsql.runtime.state.KeyedStateBackend;
import dev.rsql.runtime.table.TableDescriptor;

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/** What the job gives its tasks: threads, timers, checkpointing, state and side-output writers. */
interface TaskServices {

    String jobName();

    Options config();

    /** The worker pool tasks run their slices on. */
    Executor workers();

    /** For processing-time wake-ups and idleness checks. */
    ScheduledExecutorService timers();

    TaskCheckpoints coordinator();

    /** Opens a task's keyed state, restored from the latest completed checkpoint when it has one for the task. */
    KeyedStateBackend openState(String taskId);

    /** The snapshot of a task in the checkpoint the job was restored from, or null. */
    TaskSnapshot restored(String taskId);

    /** A writer for a table that is not a sink of the graph (late data, dead letters). */
    SinkWriter sideOutput(TableDescriptor table, SinkWriterContext context) throws Exception;

    /** The job's dimension tables in this process (lookup joins). */
    DimensionTables dimensionTables();

    void taskFinished(Task task);

    void taskFailed(Task task, Throwable cause);
}
