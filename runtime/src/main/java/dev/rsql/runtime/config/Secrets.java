package dev.rsql.runtime.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rule for option values that must never be shown (in errors, logs, {@code explain} or {@code status}): those
 * whose key names a secret (password, secret, access key, token, credential, ...; case, dashes, dots and underscores
 * ignored), and those that came from a {@code ${...}} placeholder (an environment variable, a setting), which
 * {@link Options} tracks. Shown values are replaced by {@link #MASK}. Values of other keys may carry credentials
 * themselves, as connection strings do ({@code jdbc:mysql://user:secret@db/x}, {@code ...?password=secret}): only
 * those parts are masked ({@link #maskCredentials}).
 */
public final class Secrets {

    public static final String MASK = "******";
    private static final List<String> WORDS = List.of("password", "passwd", "pwd", "secret", "accesskey", "token",
            "credential", "apikey", "privatekey", "passphrase",
            // an HTTP sink's headers.Authorization (Basic or Bearer credentials)
            "authorization",
            // Kafka's sasl.jaas.config holds the login module's password inside its value.
            "jaasconfig");

    /** {@code scheme://user:secret@}: the secret is group 3. */
    private static final Pattern USER_INFO = Pattern.compile("^([a-z][a-z0-9+.:-]*://)([^/@:?#]*):([^/@?#]*)@",
            Pattern.CASE_INSENSITIVE);
    /** {@code ?password=secret}, {@code ;pwd=secret}, {@code &token=secret}: the secret is group 3. */
    private static final Pattern SECRET_PARAM = Pattern.compile("([?&;])([a-z0-9_.-]*=)([^&;]*)",
            Pattern.CASE_INSENSITIVE);

    private Secrets() {
    }

    /** The credentials a connection string carries: the password of its user info, values of secret parameters. */
    public static List<String> credentialsIn(String value) {
        List<String> found = new ArrayList<>();
        if (value == null) {
            return found;
        }
        Matcher m = USER_INFO.matcher(value);
        if (m.find() && !m.group(3).isEmpty()) {
            found.add(m.group(3));
        }
        Matcher p = SECRET_PARAM.matcher(value);
        while (p.find()) {
            String key = p.group(2).substring(0, p.group(2).length() - 1);
            if (isSecretKey(key) && !p.group(3).isEmpty()) {
                found.add(p.group(3));
            }
        }
        return found;
    }

    /** {@code value} with the credentials it carries ({@link #credentialsIn}) masked; itself when it has none. */
    public static String maskCredentials(String value) {
        if (value == null) {
            return null;
        }
        String out = value;
        Matcher m = USER_INFO.matcher(out);
        if (m.find() && !m.group(3).isEmpty()) {
            out = m.group(1) + m.group(2) + ":" + MASK + "@" + out.substring(m.end());
        }
        Matcher p = SECRET_PARAM.matcher(out);
        StringBuilder b = new StringBuilder();
        while (p.find()) {
            String key = p.group(2).substring(0, p.group(2).length() - 1);
            String replacement = isSecretKey(key) && !p.group(3).isEmpty() ? p.group(1) + p.group(2) + MASK
                    : p.group();
            p.appendReplacement(b, Matcher.quoteReplacement(replacement));
        }
        p.appendTail(b);
        return b.toString();
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
