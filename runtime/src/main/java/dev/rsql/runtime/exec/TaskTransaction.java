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

    private final String prefix;
    private volatile long checkpointId = 1;

    TaskTransaction(String taskId, long incarnation) {
        this.prefix = taskId + "/" + CommitRecord.hex(incarnation) + "/";
    }

    /** The transaction rows written now belong to: the next checkpoint's. */
    String current() {
        return prefix + checkpointId;
    }

    /** Checkpoint {@code committed} is stored: rows written from now on belong to the one after it. */
    void committed(long committed) {
        checkpointId = committed + 1;
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
