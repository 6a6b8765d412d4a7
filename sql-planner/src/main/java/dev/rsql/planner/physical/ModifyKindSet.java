package dev.rsql.planner.physical;

import java.util.ArrayList;
import java.util.List;

/**
 * Which kinds of change a stream carries (Flink's ModifyKindSet): inserts, updates, deletes. What a change means,
 * not how an update is encoded (that is {@link UpdateKind}).
 */
public record ModifyKindSet(boolean insert, boolean update, boolean delete) {

    public static final ModifyKindSet INSERT_ONLY = new ModifyKindSet(true, false, false);
    public static final ModifyKindSet ALL = new ModifyKindSet(true, true, true);

    /** True when the stream carries updates or deletes. */
    public boolean isChangelog() {
        return update || delete;
    }

    public ModifyKindSet union(ModifyKindSet other) {
        return new ModifyKindSet(insert || other.insert, update || other.update, delete || other.delete);
    }

    /** The kinds of this set that {@code other} lacks. */
    public ModifyKindSet minus(ModifyKindSet other) {
        return new ModifyKindSet(insert && !other.insert, update && !other.update, delete && !other.delete);
    }

    public boolean isEmpty() {
        return !insert && !update && !delete;
    }

    public static ModifyKindSet union(List<ModifyKindSet> sets) {
        ModifyKindSet all = new ModifyKindSet(false, false, false);
        for (ModifyKindSet s : sets) {
            all = all.union(s);
        }
        return all;
    }

    /** The kinds in words, as the errors name them: {@code update and delete}. */
    public String describe() {
        List<String> words = new ArrayList<>();
        if (insert) {
            words.add("insert");
        }
        if (update) {
            words.add("update");
        }
        if (delete) {
            words.add("delete");
        }
        return String.join(" and ", words);
    }
}
