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
        if (escape != null && escape.codePointCount(0, escape.length()) != 1) {
            throw new IllegalArgumentException("LIKE escape must be one character, got '" + escape + "'");
        }
        int esc = escape == null ? -1 : escape.codePointAt(0);
        StringBuilder literal = new StringBuilder();
        StringBuilder regex = new StringBuilder();
        // literal text goes into the regex quoted as a whole: quoting the halves of a surrogate pair (an emoji) one
        // by one would make a regex that never matches it
        StringBuilder quoted = new StringBuilder();
        boolean leadingPercent = false;
        boolean trailingPercent = false;
        boolean simple = true;
        int n = pattern.length();
        for (int i = 0; i < n; ) {
            int c = pattern.codePointAt(i);
            i += Character.charCount(c);
            if (c == esc) {
                if (i >= n) {
                    throw new IllegalArgumentException("LIKE pattern ends with its escape character: '" + pattern + "'");
                }
                int next = pattern.codePointAt(i);
                i += Character.charCount(next);
                literal.appendCodePoint(next);
                quoted.appendCodePoint(next);
            } else if (c == '%' || c == '_') {
                appendQuoted(regex, quoted);
                if (c == '_') {
                    regex.append('.');
                    simple = false;
                } else {
                    regex.append(".*");
                    if (literal.length() == 0 && !trailingPercent && regex.length() == 2) {
                        leadingPercent = true;
                    } else if (i == n) {
                        trailingPercent = true;
                    } else {
                        simple = false;
                    }
                }
            } else {
                if (trailingPercent) {
                    simple = false;
                }
                literal.appendCodePoint(c);
                quoted.appendCodePoint(c);
            }
        }
        appendQuoted(regex, quoted);
        if (simple) {
            Kind kind = leadingPercent
                    ? (trailingPercent ? Kind.CONTAINS : Kind.SUFFIX)
                    : (trailingPercent ? Kind.PREFIX : Kind.EQUALS);
            return new LikeMatcher(kind, literal.toString(), null);
        }
        return new LikeMatcher(Kind.REGEX, null, Pattern.compile(regex.toString(), Pattern.DOTALL));
    }

    private static void appendQuoted(StringBuilder regex, StringBuilder quoted) {
        if (quoted.length() > 0) {
            regex.append(Pattern.quote(quoted.toString()));
            quoted.setLength(0);
        }
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
