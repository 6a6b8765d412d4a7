package dev.rsql.runtime.format.json;

import java.util.Arrays;

/** A growable UTF-8 byte buffer with JSON string escaping. Reused across rows by one encoder. */
final class JsonOut {

    private static final byte[] HEX = "0123456789abcdef".getBytes();
    /** "00", "01", ... "99". */
    private static final byte[] DIGIT_PAIRS = new byte[200];

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_PAIRS[2 * i] = (byte) ('0' + i / 10);
            DIGIT_PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    private byte[] buf = new byte[512];
    private int n;

    void reset() {
        n = 0;
    }

    int size() {
        return n;
    }

    byte[] toBytes() {
        return Arrays.copyOf(buf, n);
    }

    String asString() {
        return new String(buf, 0, n, java.nio.charset.StandardCharsets.UTF_8);
    }

    private void ensure(int extra) {
        if (n + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, n + extra));
        }
    }

    void raw(char c) {
        ensure(1);
        buf[n++] = (byte) c;
    }

    void raw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, n, bytes.length);
        n += bytes.length;
    }

    /** Appends ASCII text as is (numbers, literals). */
    void ascii(String s) {
        int len = s.length();
        ensure(len);
        for (int i = 0; i < len; i++) {
            buf[n++] = (byte) s.charAt(i);
        }
    }

    /** Appends a number's decimal digits straight into the buffer (no String per number: one or more per row). */
    void number(long v) {
        if (v == Long.MIN_VALUE) {
            ascii(Long.toString(v));
            return;
        }
        ensure(20);
        if (v < 0) {
            buf[n++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long bound = 10; digits < 19 && v >= bound; bound *= 10) {
            digits++;
        }
        byte[] b = buf;
        int p = n + digits;
        n = p;
        // two digits per division, in int arithmetic once the rest fits
        while (v > Integer.MAX_VALUE) {
            long q = v / 100;
            int r = (int) (v - q * 100) * 2;
            b[--p] = DIGIT_PAIRS[r + 1];
            b[--p] = DIGIT_PAIRS[r];
            v = q;
        }
        int i = (int) v;
        while (i >= 100) {
            int q = i / 100;
            int r = (i - q * 100) * 2;
            b[--p] = DIGIT_PAIRS[r + 1];
            b[--p] = DIGIT_PAIRS[r];
            i = q;
        }
        if (i >= 10) {
            b[--p] = DIGIT_PAIRS[i * 2 + 1];
            b[--p] = DIGIT_PAIRS[i * 2];
        } else {
            b[--p] = (byte) ('0' + i);
        }
    }

    /** Appends a JSON string literal. */
    void string(String s) {
        int len = s.length();
        ensure(len * 6 + 2);
        byte[] b = buf;
        int p = n;
        b[p++] = '"';
        for (int i = 0; i < len; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    b[p++] = (byte) c;
                } else {
                    b[p++] = '\\';
                    switch (c) {
                        case '"':
                            b[p++] = '"';
                            break;
                        case '\\':
                            b[p++] = '\\';
                            break;
                        case '\n':
                            b[p++] = 'n';
                            break;
                        case '\r':
                            b[p++] = 'r';
                            break;
                        case '\t':
                            b[p++] = 't';
                            break;
                        case '\b':
                            b[p++] = 'b';
                            break;
                        case '\f':
                            b[p++] = 'f';
                            break;
                        default:
                            p = unicodeEscape(b, p, c);
                    }
                }
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | (c >> 6));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < len && Character.isLowSurrogate(s.charAt(i + 1))) {
                    int cp = Character.toCodePoint(c, s.charAt(++i));
                    b[p++] = (byte) (0xF0 | (cp >> 18));
                    b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    b[p++] = (byte) (0x80 | (cp & 0x3F));
                } else {
                    b[p++] = '\\';
                    p = unicodeEscape(b, p, c);
                }
            } else {
                b[p++] = (byte) (0xE0 | (c >> 12));
                b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        b[p++] = '"';
        n = p;
    }

    private static int unicodeEscape(byte[] b, int p, char c) {
        b[p++] = 'u';
        b[p++] = HEX[(c >> 12) & 0xF];
        b[p++] = HEX[(c >> 8) & 0xF];
        b[p++] = HEX[(c >> 4) & 0xF];
        b[p++] = HEX[c & 0xF];
        return p;
    }
}
