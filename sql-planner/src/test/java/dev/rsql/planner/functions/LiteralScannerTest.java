package dev.rsql.planner.functions;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A {@link LiteralScanner} reports exactly the literals {@link String#contains} finds, each once, on random literals
 * (one character long, overlapping, sharing prefixes, non-ASCII) and strings, with and without ignoring case, and
 * whatever the text around them (where the scan skips, where a partial match breaks off).
 */
class LiteralScannerTest {

    private static final String ALPHABET = "abAB /.-\u00e9\u00c9\u4e2d";

    private static String random(Random r, int min, int max) {
        StringBuilder b = new StringBuilder();
        int n = min + r.nextInt(max - min + 1);
        for (int i = 0; i < n; i++) {
            b.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }

    @Test
    void findsWhatContainsFinds() {
        Random r = new Random(20261202);
        for (int round = 0; round < 400; round++) {
            boolean ignoreCase = r.nextBoolean();
            List<String> literals = new ArrayList<>();
            int count = 1 + r.nextInt(12);
            while (literals.size() < count) {
                String literal = random(r, 1, 5);
                if (ignoreCase) {
                    literal = RequiredLiterals.foldAscii(literal);
                }
                if (!literals.contains(literal)) {
                    literals.add(literal);
                }
            }
            LiteralScanner scanner = new LiteralScanner(literals, ignoreCase);
            int[] seen = new int[literals.size()];
            int[] found = new int[literals.size()];
            for (int k = 0; k < 50; k++) {
                StringBuilder b = new StringBuilder(random(r, 0, 6));
                for (int p = r.nextInt(3); p > 0; p--) {
                    String literal = literals.get(r.nextInt(literals.size()));
                    b.append(ignoreCase && r.nextBoolean() ? literal.toUpperCase(Locale.ROOT) : literal);
                    b.append(random(r, 0, 4));
                }
                String s = b.toString();
                String haystack = ignoreCase ? RequiredLiterals.foldAscii(s) : s;
                TreeSet<Integer> expected = new TreeSet<>();
                for (int id = 0; id < literals.size(); id++) {
                    if (haystack.contains(literals.get(id))) {
                        expected.add(id);
                    }
                }
                int stamp = round * 100 + k + 1;
                int n = scanner.scan(s, seen, stamp, found);
                TreeSet<Integer> actual = new TreeSet<>();
                for (int id : Arrays.copyOf(found, n)) {
                    actual.add(id);
                    assertEquals(stamp, seen[id]);
                }
                assertEquals(n, actual.size(), () -> "a literal listed twice in '" + s + "'");
                assertEquals(expected, actual, () -> literals + " in '" + s + "' (ignore case: " + ignoreCase + ")");
            }
        }
    }
}
