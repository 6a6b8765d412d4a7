package dev.rsql.runtime.state.changelog;

import dev.rsql.runtime.state.store.StoreStateBackend;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * A task's state as its state queue holds it, and the claim on the queue that a {@link StateChangelogWriter}
 * continues from.
 *
 * @param queue       the state queue
 * @param backend     the state, opened in the task's working directory, change tracking on; the caller closes it
 * @param commit      the last commit record of the queue, or null if the queue has none (the state is empty)
 * @param incarnation the new incarnation that claimed the queue
 * @param nextOffset  the offset after the claim: the writer's first message must land there, or another writer has
 *                    appended meanwhile
 * @param stats       what the restore read
 * @param staged      what sink writers kept with the restored checkpoint to publish after it, or null
 */
public record RestoredState(MessageQueue queue, StoreStateBackend backend, CommitRecord commit, long incarnation,
                            long nextOffset, RestoreStats stats, StagedRows staged) {
}
