package dev.rsql.runtime.state.changelog;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;

import java.time.Duration;

/**
 * How a task's state goes to its state queue.
 *
 * @param snapshotEvery         every this many checkpoints one is a full snapshot ({@code state.snapshot.every}, 100;
 *                              1: every checkpoint)
 * @param snapshotChangesRatio  a full snapshot is also due when the change bytes written since the last one exceed
 *                              this multiple of its size ({@code state.snapshot.changes-ratio}, 2) ...
 * @param snapshotMinChangesBytes ... and this many bytes ({@code state.snapshot.min-changes-bytes}, 8 MiB), so that a
 *                              small state is not rewritten for a few changes
 * @param messageBytes          target body size of a state message ({@code state.changelog.message-bytes}, 1 MiB); a
 *                              single larger entry gets a message of its own, up to RocketMQ's 4 MiB limit
 * @param requestTimeout        timeout of one send or read ({@code state.changelog.request-timeout}, 10 s)
 * @param retryTimeout          how long a message is retried after transient failures before the checkpoint fails
 *                              ({@code state.changelog.retry-timeout}, 60 s); the same holds for each read of a restore
 */
public record ChangelogSettings(int snapshotEvery, double snapshotChangesRatio, long snapshotMinChangesBytes,
                                int messageBytes, Duration requestTimeout, Duration retryTimeout) {

    public static final int DEFAULT_SNAPSHOT_EVERY = 100;
    public static final double DEFAULT_SNAPSHOT_CHANGES_RATIO = 2.0;
    public static final long DEFAULT_SNAPSHOT_MIN_CHANGES_BYTES = 8L << 20;
    public static final int DEFAULT_MESSAGE_BYTES = 1 << 20;
    /** RocketMQ's default largest message is 4 MiB; leave room for properties. */
    private static final int MAX_MESSAGE_BYTES = (4 << 20) - (64 << 10);

    public ChangelogSettings {
        if (snapshotEvery < 1) {
            throw new ConfigException("state.snapshot.every must be at least 1, got " + snapshotEvery);
        }
        if (!(snapshotChangesRatio > 0)) {
            throw new ConfigException("state.snapshot.changes-ratio must be positive, got " + snapshotChangesRatio);
        }
        if (snapshotMinChangesBytes < 0) {
            throw new ConfigException("state.snapshot.min-changes-bytes must not be negative, got "
                    + snapshotMinChangesBytes);
        }
        if (messageBytes < 1024 || messageBytes > MAX_MESSAGE_BYTES) {
            throw new ConfigException("state.changelog.message-bytes must be between 1024 and " + MAX_MESSAGE_BYTES
                    + ", got " + messageBytes);
        }
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new ConfigException("state.changelog.request-timeout must be positive, got " + requestTimeout);
        }
        if (retryTimeout.isNegative()) {
            throw new ConfigException("state.changelog.retry-timeout must not be negative, got " + retryTimeout);
        }
    }

    public static ChangelogSettings defaults() {
        return from(Options.empty());
    }

    public static ChangelogSettings from(Options config) {
        return new ChangelogSettings(
                config.getInt(DEFAULT_SNAPSHOT_EVERY, "state.snapshot.every"),
                config.getDouble(DEFAULT_SNAPSHOT_CHANGES_RATIO, "state.snapshot.changes-ratio"),
                config.getLong(DEFAULT_SNAPSHOT_MIN_CHANGES_BYTES, "state.snapshot.min-changes-bytes"),
                config.getInt(DEFAULT_MESSAGE_BYTES, "state.changelog.message-bytes"),
                config.getDuration(Duration.ofSeconds(10), "state.changelog.request-timeout"),
                config.getDuration(Duration.ofSeconds(60), "state.changelog.retry-timeout"));
    }

    /** Whether the next checkpoint after {@code last} must be a full snapshot. */
    boolean snapshotDue(CommitRecord last) {
        return last.checkpointsSinceBase() + 1 >= snapshotEvery
                || last.bytesSinceBase() > Math.max((long) (snapshotChangesRatio * last.baseBytes()),
                snapshotMinChangesBytes);
    }
}
