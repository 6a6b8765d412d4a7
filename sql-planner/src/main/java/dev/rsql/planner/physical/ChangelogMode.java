package dev.rsql.planner.physical;

/**
 * The changes a node emits, as EXPLAIN prints them: {@code [I]} for an insert-only stream, {@code [I,UA,D]} for
 * upserts, {@code [I,UB,UA,D]} for a retract stream.
 */
public record ChangelogMode(ModifyKindSet kinds, boolean updateBefore) {

    /** True when updates come as -U/+U pairs. */
    public boolean hasUpdateBefore() {
        return updateBefore;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        if (kinds.insert()) {
            sb.append("I,");
        }
        if (kinds.update()) {
            sb.append(updateBefore ? "UB,UA," : "UA,");
        }
        if (kinds.delete()) {
            sb.append("D,");
        }
        if (sb.length() > 1) {
            sb.setLength(sb.length() - 1);
        }
        return sb.append(']').toString();
    }
}
