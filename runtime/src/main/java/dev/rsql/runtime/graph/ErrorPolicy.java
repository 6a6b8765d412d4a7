package dev.rsql.runtime.graph;

/** What a task does with a record that cannot be decoded or processed. */
public enum ErrorPolicy {
    /** Stop the job, naming the record's position; the position is not committed past it. */
    FAIL,
    /** Count it, log it with its position, write it to the dead-letter table if any, and go on. */
    SKIP
}
