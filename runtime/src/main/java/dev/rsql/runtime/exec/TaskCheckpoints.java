package dev.rsql.runtime.exec;

import dev.rsql.runtime.state.KeyedStateBackend;

import java.io.IOException;

/**
 * Where a task's part of a checkpoint goes: the job-wide {@link CheckpointCoordinator} of a single process, or, when
 * the job runs distributed, each task on its own.
 */
interface TaskCheckpoints {

    /** Snapshots a task's state into the checkpoint; returns where it went (relative to the checkpoint). */
    String snapshotState(long checkpointId, String taskId, KeyedStateBackend state) throws IOException;

    /** The task's part of the checkpoint is done: everything before it is flushed and passed on. */
    void acknowledge(long checkpointId, TaskSnapshot snapshot);
}
