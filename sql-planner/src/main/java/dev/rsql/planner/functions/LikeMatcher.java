package dev.rsql.planner.functions;

import org.apache.calcite.linq4j.function.Deterministic;

import java.util.regex.Pattern;

/**
 * SQL LIKE against a constant pattern, compiled once into the cheapest test: equality, prefix, suffix, substring, or
 * a regular expression when the pattern needs one ({@code _}, several {@code %} in the middle). Rule-heavy jobs
 * evaluate many such patterns per record.
 */
public final class LikeMatcher {

    private enum Kind { EQUALS, PREFIX, SUFFIX, CONTAINS, REGEX }

    private final Kind kind;
    private final String literal;
    private final Pattern regex;

    private LikeMatcher(Kind kind, String literal, Pattern regex) {
        this.kind = kind;
        this.literal = literal;
        this.regex = regex;
    }

    /** Compiles a LIKE pattern; {@code escape} is null or a one-character string. */
    @Deterministic
    public static LikeMatcher compile(String pattern, String escape) {
        if (escape != null && escape.length() != 1) {
            throw new IllegalArgumentException("LIKE escape must be one character, got '" + escape + "'");
        }
        char esc = escape == null ? 0 : escape.charAt(0);
        StringBuilder literal = new StringBuilder();
        StringBuilder regex = new StringBuilder();
        boolean leadingPercent = false;
        boolean trailingPercent = false;
        boolean simple = true;
        int n = pattern.length();
        for (int i = 0; i < n; i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == esc) {
                if (i + 1 >= n) {
                    throw new IllegalArgumentException("LIKE pattern ends with its escape character: '" + pattern + "'");
                }
                char next = pattern.charAt(++i);
                literal.append(next);
                regex.append(Pattern.quote(String.valueOf(next)));
            } else if (c == '%') {
                regex.append(".*");
                if (literal.length() == 0 && !trailingPercent && regex.length() == 2) {
                    leadingPercent = true;
                } else if (i == n - 1) {
                    trailingPercent = true;
                } else {
                    simple = false;
                }
            } else if (c == '_') {
                regex.append('.');
                simple = false;
            } else {
                if (trailingPercent) {
                    simple = false;
                }
                literal.append(c);
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        if (simple) {
            Kind kind = leadingPercent
                    ? (trailingPercent ? Kind.CONTAINS : Kind.SUFFIX)
                    : (trailingPercent ? Kind.PREFIX : Kind.EQUALS);
            return new LikeMatcher(kind, literal.toString(), null);
        }
        return new LikeMatcher(Kind.REGEX, null, Pattern.compile(regex.toString(), Pattern.DOTALL));
    }

    public boolean matches(String s) {
        switch (kind) {
            case EQUALS:
                return s.equals(literal);
            case PREFIX:
                return s.startsWith(literal);
            case SUFFIX:
                return s.endsWith(literal);
            case CONTAINS:
                return s.contains(literal);
            default:
                return regex.matcher(s).matches();
        }
    }
}
