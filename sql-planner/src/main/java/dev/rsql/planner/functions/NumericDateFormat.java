package dev.rsql.planner.functions;

import java.text.DecimalFormat;
import java.text.SimpleDateFormat;
import java.util.Arrays;
import java.util.GregorianCalendar;

/**
 * A {@link SimpleDateFormat} pattern of numeric fields only ({@code y M d H m s S}, {@code M} at most twice) and
 * literal text, printed straight from the epoch milliseconds: the same text as SimpleDateFormat in UTC without a
 * Calendar, a Date or a DecimalFormat per call (DATE_FORMAT(ts, 'yyyy-MM-dd') runs once per record). Covers wall-clock
 * times from the Gregorian cutover (1582-10-15, before it SimpleDateFormat counts in the Julian calendar) to the end of
 * year 9999; {@link DateFormat} uses SimpleDateFormat outside that range and for every other pattern.
 */
final class NumericDateFormat {

    /** 1582-10-15T00:00Z, where SimpleDateFormat's GregorianCalendar switches from the Julian calendar. */
    static final long FIRST_MILLIS = -12_219_292_800_000L;
    /** 10000-01-01T00:00Z. */
    static final long END_MILLIS = 253_402_300_800_000L;

    private static final long MILLIS_PER_DAY = 86_400_000L;

    /** A field's letter, or {@code 0} for literal text. */
    private final char[] letters;
    private final int[] counts;
    private final String[] literals;
    /** The most characters a time prints. */
    private final int length;

    private NumericDateFormat(char[] letters, int[] counts, String[] literals) {
        this.letters = letters;
        this.counts = counts;
        this.literals = literals;
        int n = 0;
        for (int i = 0; i < letters.length; i++) {
            // the most characters a part prints in the range covered: years up to 9999, milliseconds up to 999
            int digits = letters[i] == 'y' && counts[i] != 2 ? 4 : letters[i] == 'S' ? 3 : 2;
            n += letters[i] == 0 ? literals[i].length() : Math.max(counts[i], digits);
        }
        this.length = n;
    }

    /**
     * The fast form of a valid pattern that {@code format} (built from it in the default locale) prints, or null when
     * the pattern has other fields or the locale does not print Gregorian years in ASCII digits.
     */
    static NumericDateFormat of(String pattern, SimpleDateFormat format) {
        if (!(format.getCalendar() instanceof GregorianCalendar)
                || !(format.getNumberFormat() instanceof DecimalFormat d)
                || d.getDecimalFormatSymbols().getZeroDigit() != '0') {
            return null;
        }
        // SimpleDateFormat's pattern syntax: '' is a quote, in or out of quoted text; an unquoted ASCII letter starts
        // a field, repeated for its width; anything else is literal
        int n = pattern.length();
        char[] letters = new char[n];
        int[] counts = new int[n];
        String[] literals = new String[n];
        int parts = 0;
        StringBuilder text = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < n; ) {
            char c = pattern.charAt(i);
            if (c == '\'') {
                if (i + 1 < n && pattern.charAt(i + 1) == '\'') {
                    text.append('\'');
                    i += 2;
                } else {
                    quoted = !quoted;
                    i++;
                }
            } else if (quoted || !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')) {
                text.append(c);
                i++;
            } else {
                int j = i + 1;
                while (j < n && pattern.charAt(j) == c) {
                    j++;
                }
                if ("yMdHmsS".indexOf(c) < 0 || c == 'M' && j - i > 2) {
                    return null;
                }
                if (text.length() > 0) {
                    literals[parts++] = text.toString();
                    text.setLength(0);
                }
                letters[parts] = c;
                counts[parts++] = j - i;
                i = j;
            }
        }
        if (quoted) {
            return null;
        }
        if (text.length() > 0) {
            literals[parts++] = text.toString();
        }
        return new NumericDateFormat(Arrays.copyOf(letters, parts), Arrays.copyOf(counts, parts),
                Arrays.copyOf(literals, parts));
    }

    /** Whether {@link #format} prints this wall-clock time as SimpleDateFormat does. */
    static boolean covers(long wallMillis) {
        return wallMillis >= FIRST_MILLIS && wallMillis < END_MILLIS;
    }

    /** The text of a wall-clock time that {@link #covers} holds for. */
    String format(long wallMillis) {
        long days = Math.floorDiv(wallMillis, MILLIS_PER_DAY);
        int millisOfDay = (int) (wallMillis - days * MILLIS_PER_DAY);
        // days since 1970-01-01 to year, month, day (H. Hinnant's civil_from_days: eras of 400 years from 0000-03-01)
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        int dayOfEra = (int) (z - era * 146_097);
        int yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        int dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        int mp = (5 * dayOfYear + 2) / 153;
        int day = dayOfYear - (153 * mp + 2) / 5 + 1;
        int month = mp < 10 ? mp + 3 : mp - 9;
        int year = (int) (yearOfEra + era * 400) + (month <= 2 ? 1 : 0);
        char[] out = new char[length];
        int p = 0;
        for (int i = 0; i < letters.length; i++) {
            int count = counts[i];
            switch (letters[i]) {
                case 0 -> {
                    String text = literals[i];
                    text.getChars(0, text.length(), out, p);
                    p += text.length();
                }
                case 'y' -> p = count == 2 ? pad(out, p, year % 100, 2) : pad(out, p, year, count);
                case 'M' -> p = pad(out, p, month, count);
                case 'd' -> p = pad(out, p, day, count);
                case 'H' -> p = pad(out, p, millisOfDay / 3_600_000, count);
                case 'm' -> p = pad(out, p, millisOfDay / 60_000 % 60, count);
                case 's' -> p = pad(out, p, millisOfDay / 1000 % 60, count);
                default -> p = pad(out, p, millisOfDay % 1000, count);
            }
        }
        return new String(out, 0, p);
    }

    /** Writes a number below 10,000 with at least {@code width} digits, zeros in front, at {@code p}; the end. */
    private static int pad(char[] out, int p, int value, int width) {
        int digits = value < 10 ? 1 : value < 100 ? 2 : value < 1000 ? 3 : 4;
        for (int i = digits; i < width; i++) {
            out[p++] = '0';
        }
        int end = p + digits;
        for (int i = end - 1; i >= p; i--) {
            out[i] = (char) ('0' + value % 10);
            value /= 10;
        }
        return end;
    }
}
