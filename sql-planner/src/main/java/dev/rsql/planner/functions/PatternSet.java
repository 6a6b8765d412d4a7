package dev.rsql.planner.functions;

import org.apache.calcite.linq4j.function.Deterministic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The constant LIKE and REGEXP patterns a job tests on one column, matched together. The first test of a string
 * scans it once for the literals every regular expression (and, from {@link Builder#SCANNED_LIKES} LIKEs on, every
 * LIKE pattern) requires ({@link RequiredLiterals}, one {@link LiteralScanner} pass whatever the number of
 * patterns); a pattern whose literals are absent is false without running it, a
 * {@code LIKE '%literal%'} is decided by the scan alone, and any other pattern runs its own matcher
 * ({@link LikeMatcher}, {@link java.util.regex.Matcher#find()}) only when asked, so results are exactly those of the
 * single patterns. Results are kept for the last string seen by each thread: the INSERTs of a script reading one
 * source get the same string object for a column of a record, so the scan, and a pattern several rules share, run
 * once per record for all of them (a different string object only costs another scan).
 *
 * <p>Values of a column often repeat (user agents, hosts, command lines): each thread also remembers the literals
 * and the patterns' answers of the last values it tested, in a small table indexed by a fingerprint of the value (its
 * length and a few of its characters), so that a value seen lately costs a comparison with the remembered one instead
 * of a scan and of running its patterns. A column whose values rarely repeat (URLs, addresses) stops remembering for
 * a while.
 *
 * <p>Generated code finds its set by name ({@link #named}), registered when the job's calcs are compiled.
 */
public final class PatternSet {

    private static final Map<String, PatternSet> REGISTERED = new ConcurrentHashMap<>();

    private static final int[] NONE = new int[0];

    private final List<Member> members;
    private final LiteralScanner scanner;
    private final int literalCount;
    private final PerThread<Scratch> scratch;

    /** One pattern: its own matcher, and the literal ids of which one must occur (null: no prefilter). */
    private record Member(LikeMatcher like, Pattern regex, int[] literals, boolean decidedByLiterals) {
    }

    private PatternSet(List<Member> members, LiteralScanner scanner, int literalCount) {
        this.members = members;
        this.scanner = scanner;
        this.literalCount = literalCount;
        this.scratch = new PerThread<>(Scratch::new);
    }

    /** The set registered under {@code name} (called once per generated class, from its static initializer). */
    @Deterministic
    public static PatternSet named(String name) {
        PatternSet set = REGISTERED.get(name);
        if (set == null) {
            throw new IllegalStateException("pattern set " + name + " was not registered");
        }
        return set;
    }

    /**
     * The literals one of which pattern {@code index} requires (ids as {@link #literalsIn} reports them), or null
     * when it has no prefilter.
     */
    public int[] requiredLiterals(int index) {
        int[] ids = members.get(index).literals;
        return ids == null ? null : ids.clone();
    }

    /**
     * Lists in {@code found} (as long as {@link #literalCount}) the ids of the literals that occur in {@code s} and
     * returns how many. The scan is the one {@link #matches} does for the same string: done once per string.
     */
    public int literalsIn(String s, int[] found) {
        Scratch scratch = this.scratch.get();
        if (scratch.input != s) {
            scratch.load(s);
        }
        if (!scratch.scanned) {
            scratch.scan();
        }
        System.arraycopy(scratch.found, 0, found, 0, scratch.foundCount);
        return scratch.foundCount;
    }

    /** How many distinct literals the patterns' prefilters look for. */
    public int literalCount() {
        return literalCount;
    }

    /** True when {@code s} matches pattern {@code index} (in the order the patterns were added). */
    public boolean matches(String s, int index) {
        Scratch scratch = this.scratch.get();
        if (scratch.input != s) {
            scratch.load(s);
        }
        int stamp = scratch.stamp;
        if (scratch.decided[index] == stamp) {
            return scratch.results[index];
        }
        boolean result = scratch.answer(index);
        scratch.results[index] = result;
        scratch.decided[index] = stamp;
        return result;
    }

    private static boolean evaluate(Member m, String s, Scratch scratch) {
        if (m.literals != null) {
            if (!scratch.scanned) {
                scratch.scan();
            }
            boolean found = false;
            for (int id : m.literals) {
                if (scratch.seen[id] == scratch.stamp) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                return false;
            }
            if (m.decidedByLiterals) {
                return true;
            }
        }
        return m.like != null ? m.like.matches(s) : m.regex.matcher(s).find();
    }

    /**
     * One thread's results for the last string it tested, and what it found in the strings it tested lately: their
     * literals and the patterns' answers.
     */
    private final class Scratch {
        /** Remembered values: of these lengths only (short ones scan fast, long ones would stay in memory). */
        static final int MIN_REMEMBERED = 8;
        static final int MAX_REMEMBERED = 1024;
        static final int REMEMBERED = 256;
        /** Of every so many values, this many must have been remembered for remembering to go on. */
        static final int WINDOW = 1024;
        static final int MIN_HITS = WINDOW / 16;
        /** Values tested without remembering after a window with too few hits, before trying again. */
        static final int PAUSE = 32 * WINDOW;
        /** A remembered answer: not known yet, false, true. */
        static final byte UNKNOWN = 0;
        static final byte FALSE = 1;
        static final byte TRUE = 2;

        final String[] rememberedValues = new String[REMEMBERED];
        /** The literals of a remembered value (null: not scanned yet). */
        final int[][] rememberedFound = new int[REMEMBERED][];
        final byte[][] rememberedAnswers = new byte[REMEMBERED][];
        int looked;
        int hits;
        int paused;
        final int[] seen = new int[literalCount];
        final int[] found = new int[literalCount];
        int foundCount;
        final int[] decided = new int[members.size()];
        final boolean[] results = new boolean[members.size()];
        String input;
        int stamp;
        boolean scanned;
        /** Whether the input was looked up among the remembered values; its slot there (-1: none); if it is known. */
        boolean recalled;
        int slot;
        boolean known;

        void load(String s) {
            input = s;
            scanned = false;
            recalled = false;
            if (++stamp == 0) { // wrapped: forget old marks rather than mistake them for new ones
                Arrays.fill(seen, 0);
                Arrays.fill(decided, 0);
                stamp = 1;
            }
        }

        /** Looks the input up among the remembered values, by a fingerprint: its length and three characters. */
        void recall() {
            recalled = true;
            slot = -1;
            known = false;
            int n = input.length();
            if (n < MIN_REMEMBERED || n > MAX_REMEMBERED) {
                return;
            }
            if (paused > 0) {
                paused--;
                return;
            }
            if (++looked == WINDOW) {
                paused = hits < MIN_HITS ? PAUSE : 0;
                looked = 0;
                hits = 0;
            }
            slot = (n * 0x9E3779B9 + input.charAt(n >> 1) * 0x85EBCA6B + input.charAt(n - 1) * 31
                    + input.charAt(n >> 2)) >>> 24;
            String value = rememberedValues[slot];
            known = value != null && value.equals(input);
            if (known) {
                hits++;
            }
        }

        /** Marks the literals in the input; done once per input, when a pattern with literals is first asked. */
        void scan() {
            scanned = true;
            if (scanner == null) {
                foundCount = 0;
                return;
            }
            if (!recalled) {
                recall();
            }
            int[] ids = known ? rememberedFound[slot] : null;
            if (ids != null) {
                for (int k = 0; k < ids.length; k++) {
                    seen[ids[k]] = stamp;
                    found[k] = ids[k];
                }
                foundCount = ids.length;
                return;
            }
            foundCount = scanner.scan(input, seen, stamp, found);
            if (slot >= 0) {
                if (!known) {
                    remember();
                }
                rememberedFound[slot] = foundCount == 0 ? NONE : Arrays.copyOf(found, foundCount);
            }
        }

        /** Whether the input matches pattern {@code index}, as remembered or found now. */
        boolean answer(int index) {
            if (!recalled) {
                recall();
            }
            if (known) {
                byte a = rememberedAnswers[slot][index];
                if (a != UNKNOWN) {
                    return a == TRUE;
                }
            }
            boolean result = evaluate(members.get(index), input, this);
            if (slot >= 0) {
                if (!known) {
                    remember();
                }
                rememberedAnswers[slot][index] = result ? TRUE : FALSE;
            }
            return result;
        }

        /** The input takes its slot, whatever the slot remembered before. */
        private void remember() {
            rememberedValues[slot] = input;
            rememberedFound[slot] = null;
            if (rememberedAnswers[slot] == null) {
                rememberedAnswers[slot] = new byte[members.size()];
            } else {
                Arrays.fill(rememberedAnswers[slot], UNKNOWN);
            }
            known = true;
        }
    }

    /** Collects the patterns of one set; {@link #register} builds and publishes it. */
    public static final class Builder {
        /** From this many LIKE patterns on a column, their literals are found by the scan too. */
        static final int SCANNED_LIKES = 12;

        private final List<Object> patterns = new ArrayList<>();
        private final List<String> escapes = new ArrayList<>();

        private final Map<String, Integer> indexes = new HashMap<>();
        private boolean prefilterAll;

        /**
         * Gives every LIKE pattern with a literal a prefilter, however few they are, so that {@link
         * #requiredLiterals} knows the literals of each (a rule set's index selects rules by them).
         */
        public Builder prefilterAll() {
            prefilterAll = true;
            return this;
        }

        /**
         * After {@link #prefilterAll}: true when pattern {@code index} will have a prefilter (literals one of which
         * every match contains).
         */
        public boolean prefiltered(int index) {
            return required(index, prefilterAll) != null;
        }

        /** Adds {@code s LIKE pattern [ESCAPE escape]}; returns its index (the same for the same pattern). */
        public int addLike(String pattern, String escape) {
            LikeMatcher.compile(pattern, escape); // fails here, at plan time, for a malformed pattern
            return add("like:" + escape + ":" + pattern, pattern, escape);
        }

        /** Adds {@code REGEXP(s, regex)} for a regex that compiles; returns its index (the same for the same regex). */
        public int addRegex(String regex) {
            return add("regex:" + regex, Pattern.compile(regex), null);
        }

        private int add(String key, Object pattern, String escape) {
            return indexes.computeIfAbsent(key, k -> {
                patterns.add(pattern);
                escapes.add(escape);
                return patterns.size() - 1;
            });
        }

        public boolean isEmpty() {
            return patterns.isEmpty();
        }

        /** Builds the set and registers it under {@code name} for {@link #named}. */
        public PatternSet register(String name) {
            PatternSet set = build();
            REGISTERED.put(name, set);
            return set;
        }

        PatternSet build() {
            List<RequiredLiterals> required = new ArrayList<>();
            // A few LIKEs are cheaper on their own (String.contains is vectorized) than in the scan
            boolean scanLikes = prefilterAll
                    || patterns.stream().filter(p -> !(p instanceof Pattern)).count() >= SCANNED_LIKES;
            for (int i = 0; i < patterns.size(); i++) {
                required.add(required(i, scanLikes));
            }
            // One scan per string: if any pattern ignores case, all literals are looked for ignoring case, which
            // is still necessary for the exact ones (their own matcher then decides)
            boolean fold = required.stream().anyMatch(r -> r != null && r.ignoreCase());
            List<String> literals = new ArrayList<>();
            List<Member> members = new ArrayList<>();
            for (int i = 0; i < patterns.size(); i++) {
                Object p = patterns.get(i);
                RequiredLiterals r = required.get(i);
                int[] literalIds = r == null ? null : ids(r, literals, fold);
                if (p instanceof Pattern) {
                    members.add(new Member(null, (Pattern) p, literalIds, false));
                } else {
                    String like = (String) p;
                    members.add(new Member(LikeMatcher.compile(like, escapes.get(i)), null, literalIds,
                            r != null && !fold && isContains(like, escapes.get(i), r.literals().get(0))));
                }
            }
            return new PatternSet(members, literals.isEmpty() ? null : new LiteralScanner(literals, fold),
                    literals.size());
        }

        private RequiredLiterals required(int index, boolean scanLikes) {
            Object p = patterns.get(index);
            return p instanceof Pattern ? RequiredLiterals.ofRegex(((Pattern) p).pattern())
                    : scanLikes ? RequiredLiterals.ofLike((String) p, escapes.get(index)) : null;
        }

        private static int[] ids(RequiredLiterals r, List<String> literals, boolean fold) {
            int[] out = new int[r.literals().size()];
            for (int k = 0; k < out.length; k++) {
                String literal = fold ? RequiredLiterals.foldAscii(r.literals().get(k)) : r.literals().get(k);
                int id = literals.indexOf(literal);
                if (id < 0) {
                    id = literals.size();
                    literals.add(literal);
                }
                out[k] = id;
            }
            return out;
        }

        /** True for {@code '%literal%'}: the pattern matches exactly the strings containing its literal. */
        private static boolean isContains(String like, String escape, String literal) {
            return escape == null && like.equals("%" + literal + "%") && literal.indexOf('%') < 0
                    && literal.indexOf('_') < 0;
        }
    }
}
