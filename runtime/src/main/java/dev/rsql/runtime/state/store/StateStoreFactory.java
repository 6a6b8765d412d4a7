package dev.rsql.runtime.state.store;

import java.io.IOException;
import java.nio.file.Path;

/** Opens the {@link StateStore} of a task: the kind its job is configured with. */
@FunctionalInterface
public interface StateStoreFactory {

    /**
     * Opens a store with {@code workingDir} as the task's own directory (created if missing), holding the snapshot in
     * {@code restoreFrom} (not modified), or empty if it is null.
     */
    StateStore open(Path workingDir, Path restoreFrom) throws IOException;
}
