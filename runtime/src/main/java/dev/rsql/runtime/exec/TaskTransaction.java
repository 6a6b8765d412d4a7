package dev.rsql.runtime.exec;

import dev.rsql.runtime.state.changelog.CommitRecord;

/**
 * The sinks' transaction of a shuffle task: one per checkpoint of the task's incarnation, named
 * {@code <task>/<incarnation>/<checkpoint>}, so that whoever answers the broker's check can find the commit record
 * that decides it.
 */
final class TaskTransaction {

    /** What a transaction id names. */
    record Id(String taskId, long incarnation, long checkpointId) {
    }

    private final String taskId;
    private final long incarnation;
    /** The task's last stored checkpoint; the one being written is the next. Only the task thread writes it. */
    private volatile long committed;
    private volatile String current;

    TaskTransaction(String taskId, long incarnation) {
        this.taskId = taskId;
        this.incarnation = incarnation;
        this.current = id(taskId, incarnation, 1);
    }

    /** The transaction of checkpoint {@code checkpointId} of {@code incarnation} of task {@code taskId}. */
    static String id(String taskId, long incarnation, long checkpointId) {
        return taskId + "/" + CommitRecord.hex(incarnation) + "/" + checkpointId;
    }

    /** The checkpoint the task writes next: its ids increase per incarnation, as the changelog wants. */
    long checkpointId() {
        return committed + 1;
    }

    /** The transaction rows written now belong to: the next checkpoint's. */
    String current() {
        return current;
    }

    /** Checkpoint {@code id}'s commit record is stored: rows written from now on belong to the one after it. */
    void committed(long id) {
        committed = id;
        current = id(taskId, incarnation, id + 1);
    }

    /** The last checkpoint whose commit record is stored (0: none yet in this incarnation). */
    long committedCheckpoint() {
        return committed;
    }

    /** The parts of a transaction id, or null if it is not one of these. */
    static Id parse(String transactionId) {
        int b = transactionId.lastIndexOf('/');
        int a = b <= 0 ? -1 : transactionId.lastIndexOf('/', b - 1);
        if (a <= 0) {
            return null;
        }
        try {
            return new Id(transactionId.substring(0, a), Long.parseUnsignedLong(transactionId.substring(a + 1, b), 16),
                    Long.parseLong(transactionId.substring(b + 1)));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
