package dev.rsql.runtime.text;

/**
 * How many terminal columns text takes: a Chinese, Japanese or Korean character and most emoji take two, as in
 * Unicode's East Asian Width (wide and full-width), so tables with such text stay aligned. Flink's SQL client
 * measures the same way.
 */
public final class DisplayWidth {

    private DisplayWidth() {
    }

    /** The columns {@code s} takes. */
    public static int of(String s) {
        int width = 0;
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            width += of(c);
        }
        return width;
    }

    /** The columns one character takes: 2 for wide and full-width characters, 0 for combining marks, else 1. */
    public static int of(int c) {
        if (c < 0x1100) {
            return c >= 0x300 && c <= 0x36F ? 0 : 1;
        }
        int type = Character.getType(c);
        if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || c == 0x200B) {
            return 0;
        }
        return c <= 0x115F                         // Hangul Jamo
                || c >= 0x2E80 && c <= 0xA4CF && c != 0x303F   // CJK radicals .. Yi
                || c >= 0xAC00 && c <= 0xD7A3      // Hangul syllables
                || c >= 0xF900 && c <= 0xFAFF      // CJK compatibility ideographs
                || c >= 0xFE30 && c <= 0xFE4F      // CJK compatibility forms
                || c >= 0xFF00 && c <= 0xFF60      // full-width forms
                || c >= 0xFFE0 && c <= 0xFFE6
                || c >= 0x1F300 && c <= 0x1F64F    // pictographs, emoticons
                || c >= 0x1F900 && c <= 0x1F9FF
                || c >= 0x1F680 && c <= 0x1F6FF    // transport and map symbols
                || c >= 0x20000 && c <= 0x3FFFD ? 2 : 1;
    }

    /** {@code s} followed by spaces up to {@code width} columns. */
    public static String padRight(String s, int width) {
        int pad = width - of(s);
        return pad > 0 ? s + " ".repeat(pad) : s;
    }

    /** The longest start of {@code s} that fits in {@code width} columns, never half of a character. */
    public static String cut(String s, int width) {
        int used = 0;
        int i = 0;
        while (i < s.length()) {
            int c = s.codePointAt(i);
            int w = of(c);
            if (used + w > width) {
                break;
            }
            used += w;
            i += Character.charCount(c);
        }
        return s.substring(0, i);
    }
}
