package dev.rsql.runtime.state.changelog;

/** What became of one checkpoint of one incarnation, as its state queue tells. */
public enum CheckpointOutcome {
    /** Its commit record is stored: the checkpoint counts. */
    COMMITTED,
    /** Another incarnation claimed the queue after it without it: the checkpoint never counts. */
    ABANDONED,
    /** Neither yet: the incarnation may still write the commit record. */
    OPEN
}
