package dev.rsql.runtime.text;

import java.util.Collection;
import java.util.Locale;

/** The known name closest to a misspelt one, for "did you mean" hints: {@code prefx} → {@code prefix}. */
public final class NearestName {

    private NearestName() {
    }

    /**
     * The name among {@code known} with the fewest edits (insertions, deletions, substitutions, ignoring case) from
     * {@code name}, if it is within a third of the name's length (at least 2 edits); otherwise null.
     */
    public static String of(String name, Collection<String> known) {
        String lower = name.toLowerCase(Locale.ROOT);
        int limit = Math.max(2, lower.length() / 3);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(lower, k.toLowerCase(Locale.ROOT));
            if (d <= limit && d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
