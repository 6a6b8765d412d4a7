package dev.rsql.runtime.config;

import java.util.List;
import java.util.Locale;

/**
 * The rule for option values that must never be shown (in errors, logs, {@code explain} or {@code status}): those
 * whose key names a secret (password, secret, access key, token, credential, ...; case, dashes, dots and underscores
 * ignored), and those that came from a {@code ${...}} placeholder (an environment variable, a setting), which
 * {@link Options} tracks. Shown values are replaced by {@link #MASK}.
 */
public final class Secrets {

    public static final String MASK = "******";
    private static final List<String> WORDS = List.of("password", "passwd", "pwd", "secret", "accesskey", "token",
            "credential", "apikey", "privatekey", "passphrase",
            // Kafka's sasl.jaas.config holds the login module's password inside its value.
            "jaasconfig");

    private Secrets() {
    }

    /** Whether an option key names a secret, e.g. {@code password}, {@code secretKey}, {@code sasl.jaas.token}. */
    public static boolean isSecretKey(String key) {
        String k = key.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "").replace(".", "");
        for (String w : WORDS) {
            if (k.contains(w)) {
                return true;
            }
        }
        return false;
    }

    /** The value as it may be shown under {@code key}: itself, or the mask when the key names a secret. */
    public static String shown(String key, String value) {
        return value == null || !isSecretKey(key) ? value : MASK;
    }
}
