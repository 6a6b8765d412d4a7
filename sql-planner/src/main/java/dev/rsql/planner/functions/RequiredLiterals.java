package dev.rsql.planner.functions;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The literals a string must contain for a pattern to match it: a set of which at least one occurs in every string
 * the pattern matches (e.g. {@code {"nmap", "nikto"}} for {@code (?i)(nmap|nikto)}), or null when nothing is known.
 * A prefilter built on them rejects most strings without running the pattern; it must never reject a string the
 * pattern matches, so the regular-expression reader is conservative: anything it does not fully understand (escapes
 * such as {@code \Q}, {@code \p{..}}, inline flags after the start, comments mode) gives null.
 *
 * @param literals the alternatives, at least one of which every matching string contains; none is empty
 * @param ignoreCase true when the literals are ASCII-lower-cased and must be looked for in an ASCII-lower-cased
 *     string ({@code (?i)} in Java folds US-ASCII only)
 */
public record RequiredLiterals(List<String> literals, boolean ignoreCase) {

    /** The literals a LIKE pattern requires: its longest run of literal characters, or null for none. */
    public static RequiredLiterals ofLike(String pattern, String escape) {
        char esc = escape == null || escape.isEmpty() ? 0 : escape.charAt(0);
        String best = "";
        StringBuilder run = new StringBuilder();
        for (int i = 0; i <= pattern.length(); i++) {
            char c = i < pattern.length() ? pattern.charAt(i) : '%';
            if (escape != null && c == esc && i + 1 < pattern.length()) {
                run.append(pattern.charAt(++i));
            } else if (c == '%' || c == '_') {
                if (run.length() > best.length()) {
                    best = run.toString();
                }
                run.setLength(0);
            } else {
                run.append(c);
            }
        }
        return best.isEmpty() ? null : new RequiredLiterals(List.of(best), false);
    }

    /** The literals a Java regular expression (found anywhere in a string, no flags) requires, or null. */
    public static RequiredLiterals ofRegex(String regex) {
        try {
            RegexReader reader = new RegexReader(regex);
            Set<String> any = reader.pattern();
            if (any == null) {
                return null;
            }
            List<String> literals = new ArrayList<>();
            for (String s : any) {
                literals.add(reader.ignoreCase ? foldAscii(s) : s);
            }
            return new RequiredLiterals(List.copyOf(literals), reader.ignoreCase);
        } catch (Unsupported e) {
            return null;
        }
    }

    /** Lower-cases A-Z only, as Java's {@code (?i)} without {@code (?u)} compares. */
    static String foldAscii(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            b.append(foldAscii(s.charAt(i)));
        }
        return b.toString();
    }

    static char foldAscii(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }

    /** A construct the reader does not handle: the pattern gets no prefilter. */
    private static final class Unsupported extends RuntimeException {
        Unsupported() {
            super(null, null, false, false);
        }
    }

    /**
     * Reads a valid Java regular expression. Each method returns the literal set of what it read (null: unknown).
     * A concatenation keeps the best set among its literal runs and mandatory groups; an alternation unites its
     * branches' sets (unknown if any branch is); anything optional or repeated zero times is unknown.
     */
    private static final class RegexReader {
        private final String p;
        private int i;
        boolean ignoreCase;

        RegexReader(String p) {
            this.p = p;
        }

        Set<String> pattern() {
            leadingFlags();
            Set<String> s = alternation();
            if (i != p.length()) {
                throw new Unsupported();
            }
            return s;
        }

        /** {@code (?i)}, {@code (?s)}, {@code (?m)}, {@code (?d)} and their combinations, at the very start only. */
        private void leadingFlags() {
            while (p.startsWith("(?", i)) {
                int j = i + 2;
                boolean ci = false;
                while (j < p.length() && "ismd".indexOf(p.charAt(j)) >= 0) {
                    ci |= p.charAt(j) == 'i';
                    j++;
                }
                if (j == i + 2 || j >= p.length() || p.charAt(j) != ')') {
                    return;
                }
                ignoreCase |= ci;
                i = j + 1;
            }
        }

        private Set<String> alternation() {
            Set<String> union = new LinkedHashSet<>();
            boolean known = true;
            while (true) {
                Set<String> branch = sequence();
                if (branch == null) {
                    known = false;
                } else {
                    union.addAll(branch);
                }
                if (i < p.length() && p.charAt(i) == '|') {
                    i++;
                } else {
                    return known ? union : null;
                }
            }
        }

        private Set<String> sequence() {
            Set<String> best = null;
            StringBuilder run = new StringBuilder();
            while (i < p.length() && p.charAt(i) != '|' && p.charAt(i) != ')') {
                char c = p.charAt(i);
                Set<String> group = null;
                int literal = -1;
                if (c == '(') {
                    group = group();
                } else if (c == '[') {
                    charClass();
                } else if (c == '\\') {
                    literal = escape();
                } else if (c == '.' || c == '^' || c == '$') {
                    i++;
                } else if (c == '*' || c == '+' || c == '?' || c == '{') {
                    throw new Unsupported(); // a quantifier with nothing before it
                } else if (Character.isSurrogate(c)) {
                    throw new Unsupported(); // a quantifier would apply to the whole code point
                } else {
                    literal = c;
                    i++;
                }
                int min = quantifier();
                if (literal >= 0 && min < 0) {
                    run.append((char) literal);
                    continue;
                }
                if (literal >= 0 && min > 0) {
                    run.append((char) literal);
                }
                best = better(best, run.length() == 0 ? null : Set.of(run.toString()));
                run.setLength(0);
                if (min != 0) {
                    best = better(best, group);
                }
            }
            return better(best, run.length() == 0 ? null : Set.of(run.toString()));
        }

        /** The better of two literal sets: known, with the longest shortest literal, then the fewest literals. */
        private static Set<String> better(Set<String> a, Set<String> b) {
            if (b == null || b.isEmpty() || b.contains("")) {
                return a;
            }
            if (a == null) {
                return b;
            }
            int ma = a.stream().mapToInt(String::length).min().orElse(0);
            int mb = b.stream().mapToInt(String::length).min().orElse(0);
            return mb > ma || (mb == ma && b.size() < a.size()) ? b : a;
        }

        /** After an atom: -1 for none, else the least number of repetitions. */
        private int quantifier() {
            if (i >= p.length()) {
                return -1;
            }
            char c = p.charAt(i);
            int min;
            if (c == '*' || c == '?') {
                min = 0;
                i++;
            } else if (c == '+') {
                min = 1;
                i++;
            } else if (c == '{') {
                int close = p.indexOf('}', i);
                if (close < 0) {
                    throw new Unsupported();
                }
                String body = p.substring(i + 1, close);
                String first = body.contains(",") ? body.substring(0, body.indexOf(',')) : body;
                try {
                    min = Integer.parseInt(first.trim());
                } catch (NumberFormatException e) {
                    throw new Unsupported();
                }
                i = close + 1;
            } else {
                return -1;
            }
            if (i < p.length() && (p.charAt(i) == '?' || p.charAt(i) == '+')) {
                i++;
            }
            return min;
        }

        /** A group; zero-width ones (lookaround) give null. */
        private Set<String> group() {
            i++; // (
            boolean zeroWidth = false;
            if (p.startsWith("?", i)) {
                if (p.startsWith("?:", i) || p.startsWith("?>", i)) {
                    i += 2;
                } else if (p.startsWith("?=", i) || p.startsWith("?!", i)) {
                    i += 2;
                    zeroWidth = true;
                } else if (p.startsWith("?<=", i) || p.startsWith("?<!", i)) {
                    i += 3;
                    zeroWidth = true;
                } else if (p.startsWith("?<", i)) {
                    int close = p.indexOf('>', i);
                    if (close < 0) {
                        throw new Unsupported();
                    }
                    i = close + 1;
                } else {
                    throw new Unsupported(); // inline flags inside the pattern
                }
            }
            Set<String> inner = alternation();
            if (i >= p.length() || p.charAt(i) != ')') {
                throw new Unsupported();
            }
            i++;
            return zeroWidth ? null : inner;
        }

        /** Skips a character class, nested classes included. */
        private void charClass() {
            int depth = 0;
            while (i < p.length()) {
                char c = p.charAt(i);
                if (c == '[') {
                    depth++;
                    i++;
                    if (p.startsWith("^", i)) {
                        i++;
                    }
                    if (p.startsWith("]", i)) {
                        throw new Unsupported(); // a leading ']': how Java reads it is not worth guessing
                    }
                } else if (c == ']') {
                    i++;
                    if (--depth == 0) {
                        return;
                    }
                } else if (c == '\\') {
                    escape();
                } else {
                    i++;
                }
            }
            throw new Unsupported();
        }

        /** An escape: the character it stands for, or -1 for a class, an anchor or a back reference. */
        private int escape() {
            if (i + 1 >= p.length()) {
                throw new Unsupported();
            }
            char c = p.charAt(i + 1);
            i += 2;
            switch (c) {
                case 't':
                    return '\t';
                case 'n':
                    return '\n';
                case 'r':
                    return '\r';
                case 'f':
                    return '\f';
                case 'a':
                    return '\u0007';
                case 'e':
                    return '\u001b';
                case 'd': case 'D': case 's': case 'S': case 'w': case 'W': case 'h': case 'H': case 'v': case 'V':
                case 'R': case 'X': case 'b': case 'B': case 'A': case 'G': case 'Z': case 'z':
                    return -1;
                default:
                    if (c >= '1' && c <= '9') {
                        while (i < p.length() && Character.isDigit(p.charAt(i))) {
                            i++;
                        }
                        return -1;
                    }
                    if (Character.isLetterOrDigit(c) || c > 127) {
                        throw new Unsupported(); // escapes of a property, a hex or octal code, a quote, a named group, a control character
                    }
                    return c;
            }
        }
    }

    @Override
    public String toString() {
        return (ignoreCase ? "(?i)" : "") + String.join(" | ", literals);
    }
}
