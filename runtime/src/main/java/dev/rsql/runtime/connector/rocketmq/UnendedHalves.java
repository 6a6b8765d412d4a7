package dev.rsql.runtime.connector.rocketmq;

import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * Unique keys of half messages this process's writers of one sink left to the broker's check without sending their
 * end (older than the commit window, or after such a half in their chain). While their writer runs here no other
 * process commits them early, so the check answers COMMIT to their first check at once instead of waiting a round
 * and looking them up ({@link RocketMqTransactionCheck}); a half not here (written by a process that died, or
 * forgotten) takes the lookup. Bounded: the oldest are forgotten first.
 */
final class UnendedHalves {

    private static final int CAPACITY = 100_000;

    private final LinkedHashSet<String> keys = new LinkedHashSet<>();

    synchronized void add(String key) {
        if (key != null && keys.add(key) && keys.size() > CAPACITY) {
            Iterator<String> oldest = keys.iterator();
            oldest.next();
            oldest.remove();
        }
    }

    /** Whether the half was left unended here; forgets it (a later copy of it is looked up). */
    synchronized boolean take(String key) {
        return key != null && keys.remove(key);
    }
}
