package dev.rsql.planner.functions;

import dev.rsql.runtime.state.Murmur3;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;

/**
 * String built-ins with Blink semantics. Generated code calls these directly; a strict function is not called with a
 * NULL argument (the result is NULL), so only the non-strict ones check for null. Functions throw
 * {@link IllegalArgumentException} for arguments that make no sense; the generated call reports it as a function
 * error naming the function and its arguments.
 */
public final class StringFunctions {

    private StringFunctions() {
    }

    // ---- concatenation, padding, slicing -------------------------------------------------------------------------

    public static String concat(String... values) {
        StringBuilder sb = new StringBuilder();
        for (String v : values) {
            sb.append(v);
        }
        return sb.toString();
    }

    /** Non-strict: NULL separator gives NULL; NULL values are skipped. */
    public static String concatWs(String separator, String... values) {
        if (separator == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        boolean first = true;
        for (String v : values) {
            if (v == null) {
                continue;
            }
            if (!first) {
                sb.append(separator);
            }
            sb.append(v);
            first = false;
        }
        return sb.toString();
    }

    public static String lpad(String s, int length, String pad) {
        return pad(s, length, pad, true);
    }

    public static String rpad(String s, int length, String pad) {
        return pad(s, length, pad, false);
    }

    private static String pad(String s, int length, String pad, boolean left) {
        if (length < 0) {
            return null;
        }
        int chars = charLength(s);
        if (length <= chars) {
            return s.substring(0, offset(s, 0, length));
        }
        if (pad.isEmpty()) {
            return null;
        }
        StringBuilder fill = new StringBuilder();
        int need = length - chars;
        int padChars = charLength(pad);
        for (int n = need / padChars; n > 0; n--) {
            fill.append(pad);
        }
        fill.append(pad, 0, offset(pad, 0, need % padChars));
        return left ? fill + s : s + fill;
    }

    public static String repeat(String s, int n) {
        return n <= 0 ? "" : s.repeat(n);
    }

    /** The characters of s in reverse order; a surrogate pair (an emoji) stays one character. */
    public static String reverse(String s) {
        return new StringBuilder(s).reverse().toString();
    }

    // Positions and lengths count characters (Unicode code points) as Flink does, not UTF-16 units: '🚀' is one
    // character. String.codePointCount is a subtraction for Latin-1 strings, so plain text pays nothing for it.

    /** CHAR_LENGTH(s): the number of characters. */
    public static int charLength(String s) {
        return s.codePointCount(0, s.length());
    }

    /** The UTF-16 index {@code characters} characters after index {@code from}, at most the string's length. */
    private static int offset(String s, int from, int characters) {
        int i = from;
        int len = s.length();
        for (int n = 0; n < characters && i < len; n++) {
            if (Character.isHighSurrogate(s.charAt(i++)) && i < len && Character.isLowSurrogate(s.charAt(i))) {
                i++;
            }
        }
        return i;
    }

    /** The 1-based character position of UTF-16 index {@code index}, 0 for a negative index (not found). */
    private static int position(String s, int index) {
        return index < 0 ? 0 : s.codePointCount(0, index) + 1;
    }

    /** SUBSTR/SUBSTRING(s, start): 1-based; 0 is treated as 1; a negative start counts from the end. */
    public static String substr(String s, int start) {
        return substr(s, start, Integer.MAX_VALUE);
    }

    public static String substr(String s, int start, int length) {
        if (length < 0) {
            return null;
        }
        int len = charLength(s);
        int from;
        if (start > 0) {
            from = start - 1;
            if (from >= len) {
                return "";
            }
        } else if (start < 0) {
            from = len + start;
            if (from < 0) {
                return "";
            }
        } else {
            from = 0;
        }
        int begin = offset(s, 0, from);
        return s.substring(begin, offset(s, begin, length));
    }

    public static String left(String s, int n) {
        return n <= 0 ? "" : s.substring(0, offset(s, 0, n));
    }

    public static String right(String s, int n) {
        if (n <= 0) {
            return "";
        }
        int len = charLength(s);
        return n >= len ? s : s.substring(offset(s, 0, len - n));
    }

    /**
     * OVERLAY(s PLACING r FROM start [FOR len]): s with len characters (default: as many as r has) from position
     * start replaced by r.
     */
    public static String overlay(String s, String r, int start) {
        return overlay(s, r, start, charLength(r));
    }

    public static String overlay(String s, String r, int start, int length) {
        int begin = offset(s, 0, Math.max(start - 1, 0));
        int end = offset(s, begin, Math.max(length, 0));
        return s.substring(0, begin) + r + s.substring(end);
    }

    public static String ltrim(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) == ' ') {
            i++;
        }
        return s.substring(i);
    }

    public static String rtrim(String s) {
        int i = s.length();
        while (i > 0 && s.charAt(i - 1) == ' ') {
            i--;
        }
        return s.substring(0, i);
    }

    // ---- searching -----------------------------------------------------------------------------------------------

    /** INSTR(s, sub): 1-based position of the first occurrence, 0 if none. */
    public static int instr(String s, String sub) {
        return position(s, s.indexOf(sub));
    }

    public static int instr(String s, String sub, int start) {
        return instr(s, sub, start, 1);
    }

    /**
     * INSTR(s, sub, start, nth): position of the nth occurrence searching from {@code start} (1-based); a negative
     * start counts from the end and searches backwards; 0 when there is none.
     */
    public static int instr(String s, String sub, int start, int nth) {
        if (nth <= 0) {
            throw new IllegalArgumentException("nth_appearance must be positive, got " + nth);
        }
        if (start == 0) {
            return 0;
        }
        int pos;
        if (start > 0) {
            pos = offset(s, 0, start - 1) - 1;
            for (int i = 0; i < nth; i++) {
                pos = s.indexOf(sub, pos + 1);
                if (pos < 0) {
                    return 0;
                }
            }
        } else {
            int chars = charLength(s);
            pos = chars + start < 0 ? -1 : offset(s, 0, chars + start) + 1;
            for (int i = 0; i < nth; i++) {
                pos = s.lastIndexOf(sub, pos - 1);
                if (pos < 0) {
                    return 0;
                }
            }
        }
        return position(s, pos);
    }

    /** LOCATE(sub, s [, pos]) and POSITION(sub IN s): 1-based position of sub in s at or after pos, 0 if none. */
    public static int locate(String sub, String s) {
        return position(s, s.indexOf(sub));
    }

    public static int locate(String sub, String s, int pos) {
        if (pos < 1) {
            return 0;
        }
        return position(s, s.indexOf(sub, offset(s, 0, pos - 1)));
    }

    // ---- splitting, key/value ------------------------------------------------------------------------------------

    /** SPLIT_INDEX(s, sep, i): the i-th piece (from 0) of s split by the literal separator; NULL if out of range. */
    public static String splitIndex(String s, String separator, int index) {
        if (index < 0) {
            return null;
        }
        if (separator.isEmpty()) {
            return index == 0 ? s : null;
        }
        int from = 0;
        for (int i = 0; i < index; i++) {
            int at = s.indexOf(separator, from);
            if (at < 0) {
                return null;
            }
            from = at + separator.length();
        }
        int end = s.indexOf(separator, from);
        return end < 0 ? s.substring(from) : s.substring(from, end);
    }

    /**
     * KEYVALUE(s, split1, split2, key): splits s into pairs at any character of split1, each pair at the first
     * character of split2, and returns the value of the first pair whose key equals {@code key}; NULL if none.
     */
    public static String keyValue(String s, String pairSeparators, String kvSeparators, String key) {
        for (String pair : splitByChars(s, pairSeparators)) {
            int at = indexOfAny(pair, kvSeparators);
            if (at < 0) {
                continue;
            }
            if (pair.substring(0, at).equals(key)) {
                return pair.substring(at + 1);
            }
        }
        return null;
    }

    /** Pieces of s between the characters of {@code separators} (NULL or empty: a space); empty pieces dropped. */
    static List<String> splitByChars(String s, String separators) {
        String seps = separators == null || separators.isEmpty() ? " " : separators;
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= s.length(); i++) {
            if (i == s.length() || seps.indexOf(s.charAt(i)) >= 0) {
                if (i > start) {
                    out.add(s.substring(start, i));
                }
                start = i + 1;
            }
        }
        return out;
    }

    static int indexOfAny(String s, String chars) {
        String cs = chars == null || chars.isEmpty() ? " " : chars;
        for (int i = 0; i < s.length(); i++) {
            if (cs.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    public static Map<String, String> strToMap(String text) {
        return strToMap(text, Regex.compile(","), Regex.compile("="));
    }

    /**
     * STR_TO_MAP(text, listDelimiter, keyValueDelimiter): delimiters are Java regular expressions; a pair without
     * the key/value delimiter maps its key to NULL; a later key replaces an earlier one.
     */
    public static Map<String, String> strToMap(String text, Regex listDelimiter, Regex kvDelimiter) {
        if (!listDelimiter.isValid() || !kvDelimiter.isValid()) {
            throw new IllegalArgumentException("invalid delimiter regex: "
                    + (listDelimiter.isValid() ? kvDelimiter.error() : listDelimiter.error()));
        }
        Map<String, String> map = new LinkedHashMap<>();
        if (text.isEmpty()) {
            return map;
        }
        for (String pair : listDelimiter.pattern().split(text, -1)) {
            String[] kv = kvDelimiter.pattern().split(pair, 2);
            map.put(kv[0], kv.length > 1 ? kv[1] : null);
        }
        return map;
    }

    // ---- regular expressions -------------------------------------------------------------------------------------

    /** REGEXP(s, pattern): true if the pattern matches part of s; NULL for an invalid pattern. */
    public static Boolean regexp(String s, Regex pattern) {
        Matcher m = pattern.matcher(s);
        return m == null ? null : m.find();
    }

    /** REGEXP_EXTRACT(s, pattern [, index]): group {@code index} (0 = whole match, groups from 1) of the first match. */
    public static String regexpExtract(String s, Regex pattern) {
        return regexpExtract(s, pattern, 1);
    }

    public static String regexpExtract(String s, Regex pattern, int index) {
        Matcher m = pattern.matcher(s);
        if (m == null || index < 0 || !m.find() || index > m.groupCount()) {
            return null;
        }
        return m.group(index);
    }

    /** REGEXP_REPLACE(s, pattern, replacement): every match replaced ({@code $1} refers to a group). */
    public static String regexpReplace(String s, Regex pattern, String replacement) {
        Matcher m = pattern.matcher(s);
        if (m == null) {
            return null;
        }
        try {
            return m.replaceAll(replacement);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("invalid replacement '" + replacement + "': " + e.getMessage());
        }
    }

    // ---- JSON and URLs -------------------------------------------------------------------------------------------

    /** PARSE_URL(url, part): HOST, PATH, QUERY, REF, PROTOCOL, FILE, AUTHORITY or USERINFO; NULL if absent. */
    public static String parseUrl(String url, String part) {
        URL u = url(url);
        if (u == null) {
            return null;
        }
        switch (part.trim().toUpperCase(Locale.ROOT)) {
            case "HOST":
                return u.getHost();
            case "PATH":
                return u.getPath();
            case "QUERY":
                return u.getQuery();
            case "REF":
                return u.getRef();
            case "PROTOCOL":
                return u.getProtocol();
            case "FILE":
                return u.getFile();
            case "AUTHORITY":
                return u.getAuthority();
            case "USERINFO":
                return u.getUserInfo();
            default:
                throw new IllegalArgumentException("part must be HOST, PATH, QUERY, REF, PROTOCOL, FILE, AUTHORITY "
                        + "or USERINFO, got '" + part + "'");
        }
    }

    /** PARSE_URL(url, 'QUERY', key): the value of a query parameter. */
    public static String parseUrl(String url, String part, String key) {
        if (!"QUERY".equalsIgnoreCase(part.trim())) {
            throw new IllegalArgumentException("a key is only allowed with part QUERY, got '" + part + "'");
        }
        URL u = url(url);
        if (u == null || u.getQuery() == null) {
            return null;
        }
        for (String p : u.getQuery().split("&")) {
            int eq = p.indexOf('=');
            if (eq >= 0 ? p.substring(0, eq).equals(key) : p.equals(key)) {
                return eq >= 0 ? p.substring(eq + 1) : "";
            }
        }
        return null;
    }

    @SuppressWarnings("deprecation")
    private static URL url(String url) {
        try {
            return new URL(url);
        } catch (MalformedURLException e) {
            return null;
        }
    }

    public static String urlEncode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** URL_DECODE(s); NULL if s is not valid URL encoding. */
    public static String urlDecode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    // ---- hashes and encodings ------------------------------------------------------------------------------------

    public static String md5(String s) {
        return digest("MD5", s);
    }

    public static String sha1(String s) {
        return digest("SHA-1", s);
    }

    public static String sha224(String s) {
        return digest("SHA-224", s);
    }

    public static String sha256(String s) {
        return digest("SHA-256", s);
    }

    public static String sha384(String s) {
        return digest("SHA-384", s);
    }

    public static String sha512(String s) {
        return digest("SHA-512", s);
    }

    /** SHA2(s, bits): bits 224, 256, 384 or 512 (0 means 256); NULL for other lengths. */
    public static String sha2(String s, int bits) {
        switch (bits) {
            case 0:
            case 256:
                return sha256(s);
            case 224:
                return sha224(s);
            case 384:
                return sha384(s);
            case 512:
                return sha512(s);
            default:
                return null;
        }
    }

    private static String digest(String algorithm, String s) {
        try {
            byte[] d = MessageDigest.getInstance(algorithm).digest(s.getBytes(StandardCharsets.UTF_8));
            return hex(d, false);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String hex(byte[] bytes, boolean upper) {
        char[] digits = (upper ? "0123456789ABCDEF" : "0123456789abcdef").toCharArray();
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = digits[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = digits[bytes[i] & 0xf];
        }
        return new String(out);
    }

    public static int hashCode(String s) {
        return s.hashCode();
    }

    public static String toBase64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    public static String toBase64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    /** FROM_BASE64(s): the decoded bytes as UTF-8 text; NULL if s is not Base64. */
    public static String fromBase64(String s) {
        try {
            return new String(Base64.getDecoder().decode(s.replaceAll("\\s", "")), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** CHR(n): the character with code n modulo 256 (as in Flink); NULL for a negative n. */
    public static String chr(long n) {
        if (n < 0) {
            return null;
        }
        return String.valueOf((char) (n % 256));
    }

    public static String uuid() {
        return UUID.randomUUID().toString();
    }

    /** UUID() with the call site number the planner adds, so two calls in one row are not merged into one. */
    public static String uuid(int callSite) {
        return UUID.randomUUID().toString();
    }

    /** HEX(n): hexadecimal digits of a number (two's complement for negatives), upper case. */
    public static String hex(long n) {
        return Long.toHexString(n).toUpperCase(Locale.ROOT);
    }

    /** HEX(s): hexadecimal of the UTF-8 bytes, upper case. */
    public static String hex(String s) {
        return hex(s.getBytes(StandardCharsets.UTF_8), true);
    }

    public static byte[] encode(String s, String charset) {
        return s.getBytes(charset(charset));
    }

    public static String decode(byte[] b, String charset) {
        return new String(b, charset(charset));
    }

    private static Charset charset(String name) {
        try {
            return Charset.forName(name.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown character set '" + name + "'");
        }
    }

    public static int murmurHash(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return Murmur3.hash32(b, 0);
    }

    public static long murmurHash64(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return Murmur3x64.hash64(b);
    }

    /** PRINT(prefix, value): writes "prefix value" to standard output and returns the value (debugging aid). */
    public static Object print(String prefix, Object value) {
        System.out.println(prefix + " " + value);
        return value;
    }

    // ---- classification ------------------------------------------------------------------------------------------

    /** IS_ALPHA(s): true when s is not empty and all letters; false for NULL. */
    public static boolean isAlpha(String s) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isLetter(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** IS_DIGIT(s): true when s is not empty and all digits 0-9; false for NULL. */
    public static boolean isDigit(String s) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** IS_DECIMAL(s): true when s is a decimal number (optional sign, digits, optional fraction); false for NULL. */
    public static boolean isDecimal(String s) {
        if (s == null) {
            return false;
        }
        int i = 0;
        int n = s.length();
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int digits = 0;
        boolean point = false;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                digits++;
            } else if (c == '.' && !point) {
                point = true;
            } else {
                return false;
            }
        }
        return digits > 0;
    }

    /** INITCAP(s): first letter of each word upper case, the rest lower case. */
    public static String initcap(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        boolean start = true;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isLetterOrDigit(c)) {
                sb.append(start ? Character.toUpperCase(c) : Character.toLowerCase(c));
                start = false;
            } else {
                sb.append(c);
                start = true;
            }
        }
        return sb.toString();
    }
}
