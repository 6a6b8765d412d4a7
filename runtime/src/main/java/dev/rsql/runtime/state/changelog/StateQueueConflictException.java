package dev.rsql.runtime.state.changelog;

import java.io.IOException;

/**
 * A state message did not land at the offset its writer expected: something else was appended to the state queue
 * since the writer's restore or last message, most likely another owner of the queue (or a send that timed out was
 * stored after all). The writer stops: its checkpoints would no longer follow from the state in the queue.
 */
public final class StateQueueConflictException extends IOException {

    public StateQueueConflictException(String message) {
        super(message);
    }
}
