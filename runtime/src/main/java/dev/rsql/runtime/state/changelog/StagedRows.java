package dev.rsql.runtime.state.changelog;

import java.util.List;
import java.util.Map;

/**
 * What sink writers kept with a checkpoint: rows they publish only after its commit record is stored, so that the
 * task that restores the checkpoint can publish what a crash left unpublished.
 *
 * @param byOwner           each writer's chunks (opaque bytes), in the order written, by the name it staged them under
 * @param committedAtMillis when the checkpoint's commit record was stored, by the broker's clock
 * @param millisSinceCommit how long before the restore's claim that was, by the broker's clock: publishing by the
 *                          writer that staged the rows may still be under way
 */
public record StagedRows(Map<String, List<byte[]>> byOwner, long committedAtMillis, long millisSinceCommit) {

    public StagedRows {
        byOwner = Map.copyOf(byOwner);
    }
}
