package dev.rsql.planner.functions;

import org.junit.jupiter.api.Test;

import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.List;
import java.util.Random;
import java.util.TimeZone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** DATE_FORMAT's numeric fast path prints what SimpleDateFormat in UTC prints, inside its range and at its edges. */
class NumericDateFormatTest {

    private static final long YEAR_1 = -62_135_596_800_000L;        // 0001-01-01T00:00Z
    private static final long FIRST = NumericDateFormat.FIRST_MILLIS;
    private static final long END = NumericDateFormat.END_MILLIS;
    private static final long YEAR_100_000 = 3_093_527_980_800_000L; // 100000-01-01T00:00Z

    private static final String[] PARTS = {"y", "yy", "yyy", "yyyy", "yyyyy", "M", "MM", "d", "dd", "ddd", "H", "HH",
        "m", "mm", "s", "ss", "S", "SS", "SSS", "SSSS", "-", "/", " ", ":", ".", "'T'", "'at' ", "''", "'it''s'",
        "'yyyy'", "年", "\u00e9"};

    private static String expected(String pattern, long wallMillis) {
        SimpleDateFormat f = new SimpleDateFormat(pattern);
        f.setTimeZone(TimeZone.getTimeZone("UTC"));
        return f.format(new Date(wallMillis));
    }

    private static void check(String pattern, long wallMillis) {
        assertEquals(expected(pattern, wallMillis), DateFormat.compile(pattern).format(wallMillis),
                pattern + " at " + wallMillis);
    }

    @Test
    void randomPatternsAndTimesPrintAsSimpleDateFormat() {
        Random random = new Random(13);
        for (int p = 0; p < 300; p++) {
            StringBuilder pattern = new StringBuilder();
            for (int k = 1 + random.nextInt(8); k > 0; k--) {
                pattern.append(PARTS[random.nextInt(PARTS.length)]);
            }
            String s = pattern.toString();
            if (!s.contains("MMM")) {   // parts put together may spell a month name
                assertNotNull(NumericDateFormat.of(s, new SimpleDateFormat(s)), s);
            }
            for (int t = 0; t < 200; t++) {
                // mostly the fast path's range, some times before it (Julian calendar, years < 1000) and after it
                long wall = switch (t % 4) {
                    case 0 -> YEAR_1 + (long) (random.nextDouble() * (YEAR_100_000 - YEAR_1));
                    case 1 -> random.nextLong(-86_400_000L * 366 * 30, 86_400_000L * 366 * 30);
                    default -> FIRST + (long) (random.nextDouble() * (END - FIRST));
                };
                check(s, wall);
            }
        }
    }

    @Test
    void edgesOfTheRangeAndOfDays() {
        long day = 86_400_000L;
        for (String pattern : List.of("yyyy-MM-dd HH:mm:ss.SSS", "yy/M/d H:m:s.S", "yyyyyy''MM'x'", "y")) {
            for (long edge : new long[] {FIRST, END, 0, YEAR_1, 951_782_400_000L /* 2000-02-29 */,
                4_107_542_400_000L /* 2100-03-01 */, -2_203_891_200_000L /* 1900-02-28 */}) {
                for (long d = -2; d <= 2; d++) {
                    check(pattern, edge + d);
                    check(pattern, edge + d * day);
                    check(pattern, edge + d * day - 1);
                }
            }
        }
    }

    @Test
    void patternsWithTextFieldsOrUnclosedQuotesAreLeftToSimpleDateFormat() {
        for (String pattern : List.of("MMM", "yyyy-MMMM", "EEE", "a", "hh", "z", "D", "'x")) {
            SimpleDateFormat f;
            try {
                f = new SimpleDateFormat(pattern);
            } catch (IllegalArgumentException e) {
                continue;
            }
            assertNull(NumericDateFormat.of(pattern, f), pattern);
            check(pattern, 1_505_516_400_123L);
        }
    }
}
