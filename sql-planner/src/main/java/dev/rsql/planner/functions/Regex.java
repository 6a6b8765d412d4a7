package dev.rsql.planner.functions;

import org.apache.calcite.linq4j.function.Deterministic;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A compiled regular expression. With a constant pattern the generated code calls {@link #compile} once per job (the
 * call is hoisted into a static field); with a pattern from a column, compiled patterns are cached. An invalid
 * pattern compiles to an instance whose matches are NULL (Blink: a bad regex gives NULL, not an error).
 */
public final class Regex {

    private static final int CACHE_SIZE = 1000;
    private static final Map<String, Regex> CACHE = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Regex> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    private final Pattern pattern;
    private final String error;

    private Regex(Pattern pattern, String error) {
        this.pattern = pattern;
        this.error = error;
    }

    @Deterministic
    public static Regex compile(String regex) {
        if (regex == null) {
            return null;
        }
        synchronized (CACHE) {
            Regex r = CACHE.get(regex);
            if (r == null) {
                try {
                    r = new Regex(Pattern.compile(regex), null);
                } catch (PatternSyntaxException e) {
                    r = new Regex(null, e.getDescription());
                }
                CACHE.put(regex, r);
            }
            return r;
        }
    }

    /** False when the pattern did not compile. */
    public boolean isValid() {
        return pattern != null;
    }

    /** Why the pattern did not compile, or null. */
    public String error() {
        return error;
    }

    /** A matcher, or null for an invalid pattern. */
    public Matcher matcher(String s) {
        return pattern == null ? null : pattern.matcher(s);
    }

    public Pattern pattern() {
        return pattern;
    }
}
