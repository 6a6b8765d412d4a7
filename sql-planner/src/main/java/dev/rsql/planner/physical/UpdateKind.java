package dev.rsql.planner.physical;

/**
 * How updates are encoded (Flink's UpdateKind): not at all (the stream has none), as +U alone (an upsert stream,
 * which only a consumer addressing rows by key can read), or as -U followed by +U (a retract stream).
 */
public enum UpdateKind {
    NONE,
    ONLY_UPDATE_AFTER,
    BEFORE_AND_AFTER
}
