package dev.rsql.runtime.connector.rocketmq;

import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * The half messages answered COMMIT in this process in the last {@link #HOLD_MILLIS}, by unique key, so that a copy
 * of one checked moments later is not answered COMMIT again before the first answer's end could land
 * ({@link RocketMqTransactionCheck}). One per process, not per sink: a job that restarts opens its sinks again, and
 * the new sink's check must know what the old one answered a second ago (two copies of one half, answered COMMIT
 * 1 s apart across a restart, were stored twice).
 */
final class RecentCommitAnswers {

    /** How long a half answered COMMIT is not answered COMMIT again. */
    static final long HOLD_MILLIS = 30_000;
    private static final int CAPACITY = 100_000;

    static final RecentCommitAnswers IN_THIS_PROCESS = new RecentCommitAnswers();

    /** Unique key of each half answered COMMIT within the hold, with when; oldest first. */
    private final LinkedHashMap<String, Long> committedAt = new LinkedHashMap<>();

    /** Records that the half with unique key {@code key} is answered COMMIT now; false if it was within the hold. */
    synchronized boolean claim(String key, long now) {
        Iterator<Long> oldest = committedAt.values().iterator();
        while (oldest.hasNext()) {
            long at = oldest.next();
            if (now - at < HOLD_MILLIS && committedAt.size() <= CAPACITY) {
                break;
            }
            oldest.remove();
        }
        if (committedAt.containsKey(key)) {
            return false;
        }
        committedAt.put(key, now);
        return true;
    }
}
