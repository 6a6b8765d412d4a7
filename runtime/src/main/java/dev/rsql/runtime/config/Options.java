package dev.rsql.runtime.config;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * String options of a table or the engine, looked up case-insensitively (Blink lower-cases WITH keys; Flink keys
 * are dotted lower-case already). A lookup may name several aliases, e.g. the Flink key and the Blink key of the
 * same setting. Records which keys were read so unknown keys can be reported. Knows which values must not be shown
 * ({@link Secrets}): {@link #toString}, {@link #shown} and its own errors mask them.
 */
public final class Options {

    private final Map<String, String> values;            // lower-case key -> value
    private final Map<String, String> originalKeys;      // lower-case key -> key as written
    private final Set<String> substituted;               // lower-case keys whose value came from a placeholder
    private final Set<String> expansions;                // the texts placeholders expanded to: never shown
    private final Set<String> used = ConcurrentHashMap.newKeySet();

    public Options(Map<String, String> values) {
        this(values, Set.of());
    }

    /** {@code substitutedKeys}: keys whose values came from {@code ${...}} placeholders, never shown. */
    public Options(Map<String, String> values, Set<String> substitutedKeys) {
        this(values, substitutedKeys, Set.of());
    }

    /**
     * {@code expansions}: what the placeholders in those values expanded to, never shown either, also where a
     * message quotes only part of a value (a path's parent directory).
     */
    public Options(Map<String, String> values, Set<String> substitutedKeys, Set<String> expansions) {
        this.values = new LinkedHashMap<>();
        this.originalKeys = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            String lower = k.toLowerCase(Locale.ROOT);
            this.values.put(lower, v);
            this.originalKeys.put(lower, k);
        });
        Set<String> s = new TreeSet<>();
        substitutedKeys.forEach(k -> s.add(k.toLowerCase(Locale.ROOT)));
        this.substituted = Collections.unmodifiableSet(s);
        this.expansions = Set.copyOf(expansions);
    }

    public static Options empty() {
        return new Options(Map.of());
    }

    /** The first value found under any of the keys, or null. */
    public String get(String... keys) {
        for (String key : keys) {
            String lower = key.toLowerCase(Locale.ROOT);
            String v = values.get(lower);
            if (v != null) {
                used.add(lower);
                return v;
            }
        }
        return null;
    }

    public String getOrDefault(String defaultValue, String... keys) {
        String v = get(keys);
        return v == null ? defaultValue : v;
    }

    public String require(String... keys) {
        String v = get(keys);
        if (v == null || v.isEmpty()) {
            throw new ConfigException("option '" + keys[0] + "' is required"
                    + (keys.length > 1 ? " (also accepted: " + String.join(", ", java.util.Arrays.asList(keys).subList(1, keys.length)) + ")" : ""));
        }
        return v;
    }

    /** Whether the value under {@code key} must not be shown: its key names a secret or it came from a placeholder. */
    public boolean isSecret(String key) {
        return Secrets.isSecretKey(key) || substituted.contains(key.toLowerCase(Locale.ROOT));
    }

    /**
     * The value under {@code key} as errors and logs may show it: masked when {@link #isSecret}, else with any
     * credentials it carries masked ({@link Secrets#maskCredentials}).
     */
    public String shown(String key) {
        String v = values.get(key.toLowerCase(Locale.ROOT));
        return v != null && isSecret(key) ? Secrets.MASK : Secrets.maskCredentials(v);
    }

    /**
     * {@code text} with every value that must not be shown ({@link #isSecret}) masked: for messages that connectors
     * and formats build themselves from raw option values. A value is masked where it stands as a whole, not where
     * it is part of a longer word: a secret {@code x} masks {@code 'x'} and {@code /data/x}, never the x of
     * {@code nexmark}.
     */
    public String redact(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        for (Map.Entry<String, String> e : values.entrySet()) {
            String v = e.getValue();
            if (v != null && !v.isEmpty() && isSecret(e.getKey())) {
                out = maskWhole(out, v);
            } else {
                for (String credential : Secrets.credentialsIn(v)) {
                    out = maskWhole(out, credential);
                }
            }
        }
        for (String expansion : expansions) {
            if (!expansion.isEmpty()) {
                out = maskWhole(out, expansion);
            }
        }
        return out;
    }

    /** {@code text} with each occurrence of {@code secret} that no letter or digit touches replaced by the mask. */
    private static String maskWhole(String text, String secret) {
        StringBuilder out = new StringBuilder(text.length());
        int copied = 0;
        for (int at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1)) {
            int end = at + secret.length();
            boolean whole = at >= copied
                    && (at == 0 || !Character.isLetterOrDigit(text.codePointBefore(at)))
                    && (end == text.length() || !Character.isLetterOrDigit(text.codePointAt(end)));
            if (whole) {
                out.append(text, copied, at).append(Secrets.MASK);
                copied = end;
            }
        }
        return copied == 0 ? text : out.append(text, copied, text.length()).toString();
    }

    /** {@code value}, read under one of {@code keys}, as an error may show it. */
    private String shown(String value, String... keys) {
        for (String k : keys) {
            if (values.containsKey(k.toLowerCase(Locale.ROOT)) && isSecret(k)) {
                return Secrets.MASK;
            }
        }
        return value;
    }

    public int getInt(int defaultValue, String... keys) {
        String v = get(keys);
        if (v == null || v.isBlank()) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw invalid(keys, "must be an integer, got '" + shown(v, keys) + "'");
        }
    }

    public long getLong(long defaultValue, String... keys) {
        String v = get(keys);
        if (v == null || v.isBlank()) {
            return defaultValue;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw invalid(keys, "must be an integer, got '" + shown(v, keys) + "'");
        }
    }

    public double getDouble(double defaultValue, String... keys) {
        String v = get(keys);
        if (v == null || v.isBlank()) {
            return defaultValue;
        }
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw invalid(keys, "must be a number, got '" + shown(v, keys) + "'");
        }
    }

    public boolean getBoolean(boolean defaultValue, String... keys) {
        String v = get(keys);
        if (v == null || v.isBlank()) {
            return defaultValue;
        }
        String t = v.trim().toLowerCase(Locale.ROOT);
        if (t.equals("true")) {
            return true;
        }
        if (t.equals("false")) {
            return false;
        }
        throw invalid(keys, "must be true or false, got '" + shown(v, keys) + "'");
    }

    /** A duration: a bare number is milliseconds; otherwise {@code 10 s}, {@code 5min}, {@code 2h}, {@code PT1S}. */
    public Duration getDuration(Duration defaultValue, String... keys) {
        String v = get(keys);
        if (v == null || v.isBlank()) {
            return defaultValue;
        }
        try {
            return Durations.parse(v);
        } catch (IllegalArgumentException e) {
            throw invalid(keys, "must be a duration such as '500 ms', '10 s' or '5 min', got '" + shown(v, keys) + "'");
        }
    }

    /** An error about the value found under the first present key of {@code keys}; the exception names that key. */
    private ConfigException invalid(String[] keys, String problem) {
        String key = keys[0];
        for (String k : keys) {
            String lower = k.toLowerCase(Locale.ROOT);
            if (values.containsKey(lower)) {
                key = originalKeys.get(lower);
                break;
            }
        }
        return ConfigException.ofOption(key, "option '" + key + "' " + problem);
    }

    /** Options whose keys start with the prefix, with the prefix removed (e.g. {@code json.} format options). */
    public Options withPrefix(String prefix) {
        String p = prefix.toLowerCase(Locale.ROOT);
        Map<String, String> sub = new LinkedHashMap<>();
        Set<String> subSubstituted = new TreeSet<>();
        values.forEach((k, v) -> {
            if (k.startsWith(p) && k.length() > p.length()) {
                sub.put(originalKeys.get(k).substring(p.length()), v);
                used.add(k);
                if (substituted.contains(k)) {
                    subSubstituted.add(k.substring(p.length()));
                }
            }
        });
        return new Options(sub, subSubstituted, expansions);
    }

    public boolean containsKey(String key) {
        return values.containsKey(key.toLowerCase(Locale.ROOT));
    }

    /** All options with the keys as written. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        values.forEach((k, v) -> m.put(originalKeys.get(k), v));
        return Collections.unmodifiableMap(m);
    }

    /** Keys (as written) that no lookup has asked for so far. */
    public Set<String> unusedKeys() {
        Set<String> unused = new TreeSet<>();
        values.keySet().forEach(k -> {
            if (!used.contains(k)) {
                unused.add(originalKeys.get(k));
            }
        });
        return unused;
    }

    /** Marks keys as known (e.g. keys the planner itself consumed, such as the connector selector). */
    public void markUsed(String... keys) {
        for (String k : keys) {
            used.add(k.toLowerCase(Locale.ROOT));
        }
    }

    public Options with(String key, String value) {
        Map<String, String> m = new LinkedHashMap<>(asMap());
        m.put(key, value);
        Set<String> s = new TreeSet<>(substituted);
        s.remove(key.toLowerCase(Locale.ROOT));
        return new Options(m, s, expansions);
    }

    /** These options with {@code top}'s on top (its values win), secrets of both kept secret. */
    public Options overlay(Options top) {
        Map<String, String> m = new LinkedHashMap<>(asMap());
        m.putAll(top.asMap());
        Set<String> s = new TreeSet<>(substituted);
        top.values.keySet().forEach(s::remove);
        s.addAll(top.substituted);
        Set<String> e = new TreeSet<>(expansions);
        e.addAll(top.expansions);
        return new Options(m, s, e);
    }

    /** All options with the keys as written and secret values masked: what may be printed. */
    public Map<String, String> shownMap() {
        Map<String, String> m = new LinkedHashMap<>();
        values.forEach((k, v) -> m.put(originalKeys.get(k), isSecret(k) ? Secrets.MASK : Secrets.maskCredentials(v)));
        return Collections.unmodifiableMap(m);
    }

    @Override
    public String toString() {
        return shownMap().toString();
    }
}
