package dev.rsql.runtime.format.csv;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * CSV settings: {@code field-delimiter} (Blink {@code fieldDelimiter}, {@code delimiter}; default {@code ,}; escapes
 * such as {@code \t}, backslash-u plus four hex digits, or octal {@code \001} are understood), {@code quote-character} (default {@code "}),
 * {@code disable-quote-character}, {@code escape-character} (none by default), {@code null-literal},
 * {@code allow-comments} (lines starting with {@code #} are skipped), {@code charset} / {@code encoding}.
 */
final class CsvOptions {

    final String delimiter;
    final char quote;           // 0 when quoting is disabled
    final char escape;          // 0 when there is none
    final String nullLiteral;   // null when not set
    final boolean allowComments;
    final Charset charset;

    CsvOptions(Options o, String table) {
        String d = o.getOrDefault(",", "field-delimiter", "fieldDelimiter", "delimiter", "field.delimiter");
        delimiter = unescape(d);
        if (delimiter.isEmpty()) {
            throw new ConfigException("option 'field-delimiter' of table " + table + " must not be empty");
        }
        boolean noQuote = o.getBoolean(false, "disable-quote-character");
        String q = o.getOrDefault("\"", "quote-character", "quoteCharacter");
        String qu = unescape(q);
        if (!noQuote && qu.length() != 1) {
            throw new ConfigException("option 'quote-character' of table " + table + " must be one character, got '" + q + "'");
        }
        quote = noQuote ? 0 : qu.charAt(0);
        String e = o.get("escape-character", "escapeCharacter");
        if (e != null && !e.isEmpty()) {
            String eu = unescape(e);
            if (eu.length() != 1) {
                throw new ConfigException("option 'escape-character' of table " + table + " must be one character, got '" + e + "'");
            }
            escape = eu.charAt(0);
        } else {
            escape = 0;
        }
        String n = o.get("null-literal", "nullLiteral");
        nullLiteral = n == null ? null : unescape(n);
        allowComments = o.getBoolean(false, "allow-comments", "allowComments");
        String cs = o.getOrDefault("UTF-8", "charset", "encoding");
        try {
            charset = Charset.forName(cs.trim());
        } catch (RuntimeException ex) {
            throw new ConfigException("option 'charset' of table " + table + ": unknown charset '" + cs + "'");
        }
        if (quote != 0 && delimiter.indexOf(quote) >= 0) {
            throw new ConfigException("table " + table + ": the field delimiter contains the quote character");
        }
    }

    boolean isUtf8() {
        return charset.equals(StandardCharsets.UTF_8);
    }

    /** Resolves backslash escapes written in an option value: \t \n \r \\, backslash-u plus 4 hex digits, \xHH and octal \NNN. */
    static String unescape(String s) {
        if (s.indexOf('\\') < 0 || s.length() == 1) {
            return s;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                sb.append(c);
                continue;
            }
            char n = s.charAt(++i);
            switch (n) {
                case 't':
                    sb.append('\t');
                    break;
                case 'n':
                    sb.append('\n');
                    break;
                case 'r':
                    sb.append('\r');
                    break;
                case '\\':
                    sb.append('\\');
                    break;
                case 'u':
                case 'U':
                    if (i + 4 < s.length() && isHex(s, i + 1, 4)) {
                        sb.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                        i += 4;
                    } else {
                        sb.append('\\').append(n);
                    }
                    break;
                case 'x':
                    if (i + 2 < s.length() && isHex(s, i + 1, 2)) {
                        sb.append((char) Integer.parseInt(s.substring(i + 1, i + 3), 16));
                        i += 2;
                    } else {
                        sb.append('\\').append(n);
                    }
                    break;
                default:
                    if (n >= '0' && n <= '7') {
                        int end = i;
                        while (end < s.length() && end < i + 3 && s.charAt(end) >= '0' && s.charAt(end) <= '7') {
                            end++;
                        }
                        sb.append((char) Integer.parseInt(s.substring(i, end), 8));
                        i = end - 1;
                    } else {
                        sb.append('\\').append(n);
                    }
            }
        }
        return sb.toString();
    }

    private static boolean isHex(String s, int from, int count) {
        if (from + count > s.length()) {
            return false;
        }
        for (int i = from; i < from + count; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }
}
