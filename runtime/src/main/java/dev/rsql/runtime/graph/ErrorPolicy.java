package dev.rsql.runtime.graph;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;

import java.util.Locale;

/** What a task does with a record that cannot be decoded or processed. */
public enum ErrorPolicy {
    /** Stop the job, naming the record's position; the position is not committed past it. */
    FAIL,
    /** Count it, log it with its position, write it to the dead-letter table if any, and go on. */
    SKIP;

    private static final String[] KEYS = {"scan.error-policy", "error-policy", "errorPolicy"};
    private static final String IGNORE_PARSE_ERRORS = "ignore-parse-errors";
    private static final String MAX_DEAD_LETTER_PAYLOAD = "scan.dead-letter.max-payload-bytes";
    /** The most bytes of a record a dead letter keeps, by default. */
    public static final int DEFAULT_MAX_DEAD_LETTER_PAYLOAD = 1 << 20;

    /**
     * A source table's policy: {@code scan.error-policy} (or Blink's spellings) = fail | skip, else
     * {@code [<format>.]ignore-parse-errors} = true means skip (Flink's option, of whichever format); default fail.
     *
     * @throws ConfigException naming the option when its value is neither
     */
    public static ErrorPolicy of(String table, Options tableOptions) {
        String policy = tableOptions.get(KEYS);
        if (policy == null) {
            for (String key : tableOptions.asMap().keySet()) {
                if ((key.equals(IGNORE_PARSE_ERRORS) || key.endsWith("." + IGNORE_PARSE_ERRORS))
                        && tableOptions.getBoolean(false, key)) {
                    return SKIP;
                }
            }
            return FAIL;
        }
        try {
            return valueOf(policy.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            String key = KEYS[0];
            for (String k : KEYS) {
                if (tableOptions.containsKey(k)) {
                    key = k;
                    break;
                }
            }
            throw ConfigException.ofOption(key, "table " + table + ": 'scan.error-policy' must be 'fail' or 'skip', "
                    + "got '" + policy + "'");
        }
    }

    /**
     * How many bytes of a bad record of a source table its dead letter keeps: {@code
     * scan.dead-letter.max-payload-bytes}, default 1 MB, so that an oversized record cannot exhaust the heap on its
     * way to the dead-letter table.
     *
     * @throws ConfigException naming the option when it is not a number of bytes
     */
    public static int deadLetterPayloadBytes(String table, Options tableOptions) {
        int n = tableOptions.getInt(DEFAULT_MAX_DEAD_LETTER_PAYLOAD, MAX_DEAD_LETTER_PAYLOAD);
        if (n < 0) {
            throw ConfigException.ofOption(MAX_DEAD_LETTER_PAYLOAD, "table " + table + ": '"
                    + MAX_DEAD_LETTER_PAYLOAD + "' must be a number of bytes, got " + n);
        }
        return n;
    }
}
