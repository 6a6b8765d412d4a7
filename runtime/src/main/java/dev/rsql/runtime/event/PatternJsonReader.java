package dev.rsql.runtime.event;

import dev.rsql.runtime.event.PatternNode.Kind;
import dev.rsql.runtime.event.PatternNode.Member;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads a pattern's JSON text strictly (RFC 8259: no comments, no single quotes, no trailing commas, no duplicate
 * keys) into {@link PatternNode}s that remember their offsets. Patterns are small and read once per job, so the
 * reader favours exact error positions over speed.
 */
final class PatternJsonReader {

    private static final int MAX_DEPTH = 100;

    private final String text;
    private int i;

    private PatternJsonReader(String text) {
        this.text = text;
    }

    static PatternNode read(String text) {
        PatternJsonReader r = new PatternJsonReader(text);
        r.skipSpace();
        PatternNode node = r.value(0);
        r.skipSpace();
        if (r.i < text.length()) {
            throw r.error(r.i, "unexpected " + r.quoteAt(r.i) + " after the pattern");
        }
        return node;
    }

    static String numberText(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
    }

    private PatternNode value(int depth) {
        if (depth > MAX_DEPTH) {
            throw error(i, "the pattern nests deeper than " + MAX_DEPTH + " levels");
        }
        if (i >= text.length()) {
            throw error(i, "unexpected end of the pattern; expected a value");
        }
        int start = i;
        char c = text.charAt(i);
        switch (c) {
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case '"':
                return new PatternNode(Kind.STRING, string(), start);
            case 't':
                word("true");
                return new PatternNode(Kind.BOOLEAN, Boolean.TRUE, start);
            case 'f':
                word("false");
                return new PatternNode(Kind.BOOLEAN, Boolean.FALSE, start);
            case 'n':
                word("null");
                return new PatternNode(Kind.NULL, null, start);
            default:
                if (c == '-' || c >= '0' && c <= '9') {
                    return new PatternNode(Kind.NUMBER, number(), start);
                }
                if (c == '\'') {
                    throw error(i, "strings in a pattern are written in double quotes");
                }
                throw error(i, "unexpected " + quoteAt(i) + "; expected a value");
        }
    }

    private PatternNode object(int depth) {
        int start = i++;
        List<Member> members = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        skipSpace();
        if (peek() == '}') {
            i++;
            return new PatternNode(Kind.OBJECT, members, start);
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error(i, i >= text.length() ? "unexpected end of the pattern; expected a field name"
                        : "expected a field name in double quotes, found " + quoteAt(i));
            }
            int keyOffset = i;
            String key = string();
            if (!keys.add(key)) {
                throw error(keyOffset, "field \"" + key + "\" appears twice in one object");
            }
            skipSpace();
            expect(':');
            skipSpace();
            members.add(new Member(key, keyOffset, value(depth + 1)));
            skipSpace();
            if (peek() == ',') {
                i++;
                continue;
            }
            expect('}');
            return new PatternNode(Kind.OBJECT, members, start);
        }
    }

    private PatternNode array(int depth) {
        int start = i++;
        List<PatternNode> elements = new ArrayList<>();
        skipSpace();
        if (peek() == ']') {
            i++;
            return new PatternNode(Kind.ARRAY, elements, start);
        }
        while (true) {
            skipSpace();
            elements.add(value(depth + 1));
            skipSpace();
            if (peek() == ',') {
                i++;
                continue;
            }
            expect(']');
            return new PatternNode(Kind.ARRAY, elements, start);
        }
    }

    private String string() {
        int start = i++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (i >= text.length()) {
                throw error(start, "the string starting here is not closed");
            }
            char c = text.charAt(i++);
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                throw error(i - 1, "a control character in a string must be escaped");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (i >= text.length()) {
                throw error(start, "the string starting here is not closed");
            }
            char e = text.charAt(i++);
            switch (e) {
                case '"': sb.append('"'); break;
                case '\\': sb.append('\\'); break;
                case '/': sb.append('/'); break;
                case 'b': sb.append('\b'); break;
                case 'f': sb.append('\f'); break;
                case 'n': sb.append('\n'); break;
                case 'r': sb.append('\r'); break;
                case 't': sb.append('\t'); break;
                case 'u':
                    if (i + 4 > text.length()) {
                        throw error(i - 2, "\\u needs four hexadecimal digits");
                    }
                    try {
                        sb.append((char) Integer.parseInt(text.substring(i, i + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw error(i - 2, "\\u needs four hexadecimal digits");
                    }
                    i += 4;
                    break;
                default:
                    throw error(i - 2, "unknown escape \\" + e + " in a string");
            }
        }
    }

    private double number() {
        int start = i;
        if (peek() == '-') {
            i++;
        }
        if (peek() == '0') {
            i++;
        } else if (isDigit(peek())) {
            digits();
        } else {
            throw error(start, "malformed number");
        }
        if (peek() == '.') {
            i++;
            if (!isDigit(peek())) {
                throw error(start, "malformed number: digits must follow the decimal point");
            }
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            i++;
            if (peek() == '+' || peek() == '-') {
                i++;
            }
            if (!isDigit(peek())) {
                throw error(start, "malformed number: digits must follow the exponent");
            }
            digits();
        }
        if (isDigit(peek())) {
            throw error(start, "malformed number: a number does not start with 0 followed by digits");
        }
        return Double.parseDouble(text.substring(start, i));
    }

    private void digits() {
        while (isDigit(peek())) {
            i++;
        }
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private void word(String w) {
        if (!text.startsWith(w, i)) {
            throw error(i, "unexpected " + quoteAt(i) + "; expected a value");
        }
        i += w.length();
        if (i < text.length() && Character.isLetterOrDigit(text.charAt(i))) {
            throw error(i - w.length(), "unexpected " + quoteAt(i - w.length()) + "; expected a value");
        }
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error(i, i >= text.length() ? "unexpected end of the pattern; expected '" + c + "'"
                    : "expected '" + c + "', found " + quoteAt(i));
        }
        i++;
    }

    private int peek() {
        return i < text.length() ? text.charAt(i) : -1;
    }

    private void skipSpace() {
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            i++;
        }
    }

    /** The word or character at {@code at}, quoted. */
    private String quoteAt(int at) {
        int end = at;
        while (end < text.length() && end - at < 20 && Character.isLetterOrDigit(text.charAt(end))) {
            end++;
        }
        if (end == at) {
            end = at + Character.charCount(text.codePointAt(at));
        }
        return "'" + text.substring(at, end) + "'";
    }

    private EventPatternException error(int at, String detail) {
        return new EventPatternException(text, at, detail);
    }
}
