package dev.rsql.runtime.state;

/**
 * Key groups: the unit in which keyed state is partitioned. A key hashes (murmur3 of its serialized bytes) into one of
 * a fixed number of key groups, fixed for the life of a job's state; contiguous ranges of key groups are assigned to
 * the partitions (tasks, queues) of an operator, as in Flink, so that state can later be split or merged by key group
 * when the parallelism changes.
 *
 * <p>{@link #range} and {@link #partitionOf} agree: {@code kg} lies in {@code range(p, n, K)} exactly when
 * {@code partitionOf(kg, n, K) == p}.
 */
public final class KeyGroups {

    /** Largest number of key groups (the group is stored as 2 bytes in state keys; Flink has the same limit). */
    public static final int MAX_KEY_GROUPS = 1 << 15;

    /** Seed of the key hash. Stored state depends on it: never change it. */
    private static final int SEED = 0;

    private KeyGroups() {
    }

    /** The key group of a serialized key, in {@code [0, keyGroups)}. Stable across JVMs and versions. */
    public static int of(byte[] key, int keyGroups) {
        checkKeyGroups(keyGroups);
        return Math.floorMod(Murmur3.hash32(key, 0, key.length, SEED), keyGroups);
    }

    /**
     * The key groups of a partition: {@code {first, end}}, the half-open range {@code [first, end)}. Ranges of the
     * partitions are contiguous, cover {@code [0, keyGroups)} and differ in size by at most one.
     */
    public static int[] range(int partition, int partitions, int keyGroups) {
        checkPartitions(partitions, keyGroups);
        if (partition < 0 || partition >= partitions) {
            throw new IllegalArgumentException("partition " + partition + " not in [0, " + partitions + ")");
        }
        long k = keyGroups;
        int first = (int) ((partition * k + partitions - 1) / partitions);
        int end = (int) (((partition + 1) * k - 1) / partitions) + 1;
        return new int[] {first, end};
    }

    /** The partition that owns a key group. */
    public static int partitionOf(int keyGroup, int partitions, int keyGroups) {
        checkPartitions(partitions, keyGroups);
        if (keyGroup < 0 || keyGroup >= keyGroups) {
            throw new IllegalArgumentException("key group " + keyGroup + " not in [0, " + keyGroups + ")");
        }
        return (int) ((long) keyGroup * partitions / keyGroups);
    }

    public static void checkKeyGroups(int keyGroups) {
        if (keyGroups < 1 || keyGroups > MAX_KEY_GROUPS) {
            throw new IllegalArgumentException("key groups must be in [1, " + MAX_KEY_GROUPS + "], got " + keyGroups);
        }
    }

    private static void checkPartitions(int partitions, int keyGroups) {
        checkKeyGroups(keyGroups);
        if (partitions < 1 || partitions > keyGroups) {
            throw new IllegalArgumentException(
                    "partitions must be in [1, keyGroups=" + keyGroups + "], got " + partitions);
        }
    }
}
