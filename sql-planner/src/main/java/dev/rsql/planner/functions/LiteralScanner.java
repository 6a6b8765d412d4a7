package dev.rsql.planner.functions;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * An Aho-Corasick automaton over a set of literals: one pass over a string tells which of the literals occur in
 * it, however many there are. Characters that occur in no literal share one column of the transition table, so the
 * table stays small. Where no literal is partly matched (the root state), the pass skips ahead to the next position
 * whose two characters begin a literal: that test has no dependency from one position to the next, so the usual
 * text, where literals rarely begin, costs a fraction of a transition per character; each character is still looked
 * at once, by the skip or by a transition.
 */
final class LiteralScanner {

    private final int[] asciiColumn = new int[128];
    private final char[] otherChars;
    private final int firstOther;
    /** The column after the last character of the string, in {@link #starts} only. */
    private final int end;
    /** log2 of the row length of {@link #delta} and {@link #starts}, at least the columns plus {@link #end}. */
    private final int shift;
    private final int[] delta;
    private final int[][] outputs;
    /** {@code starts[a << shift | b]}: a literal begins with the characters of columns a, b (or is a alone). */
    private final boolean[] starts;

    /**
     * @param literals non-empty literals; literal {@code i} is reported as {@code i}
     * @param ignoreCase the literals are ASCII-lower-cased and are looked for in the ASCII-lower-cased string
     */
    LiteralScanner(List<String> literals, boolean ignoreCase) {
        TreeSet<Character> others = new TreeSet<>();
        int columns = 1;
        for (String literal : literals) {
            for (int i = 0; i < literal.length(); i++) {
                char c = literal.charAt(i);
                if (c < 128) {
                    if (asciiColumn[c] == 0) {
                        asciiColumn[c] = columns++;
                    }
                } else {
                    others.add(c);
                }
            }
        }
        if (ignoreCase) {
            // folding is in the columns: an upper-case letter reads as its lower-case one
            for (char c = 'A'; c <= 'Z'; c++) {
                asciiColumn[c] = asciiColumn[c + ('a' - 'A')];
            }
        }
        otherChars = new char[others.size()];
        int k = 0;
        for (char c : others) {
            otherChars[k++] = c;
        }
        firstOther = columns;
        end = columns + otherChars.length;
        shift = 32 - Integer.numberOfLeadingZeros(end);
        int stride = 1 << shift;

        // the trie: goto[state][column], 0 = none (state 0 is the root, never a child)
        List<int[]> gotoRows = new ArrayList<>();
        List<List<Integer>> ends = new ArrayList<>();
        gotoRows.add(new int[stride]);
        ends.add(new ArrayList<>());
        starts = new boolean[stride * stride];
        for (int id = 0; id < literals.size(); id++) {
            String literal = literals.get(id);
            int first = column(literal.charAt(0));
            if (literal.length() == 1) {
                Arrays.fill(starts, first << shift, (first + 1) << shift, true);
            } else {
                starts[first << shift | column(literal.charAt(1))] = true;
            }
            int state = 0;
            for (int i = 0; i < literal.length(); i++) {
                int col = column(literal.charAt(i));
                int next = gotoRows.get(state)[col];
                if (next == 0) {
                    next = gotoRows.size();
                    gotoRows.add(new int[stride]);
                    ends.add(new ArrayList<>());
                    gotoRows.get(state)[col] = next;
                }
                state = next;
            }
            ends.get(state).add(id);
        }
        int states = gotoRows.size();
        delta = new int[states * stride];
        outputs = new int[states][];
        int[] fail = new int[states];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int col = 0; col < end; col++) {
            int child = gotoRows.get(0)[col];
            delta[col] = child;
            if (child != 0) {
                queue.add(child);
            }
        }
        outputs[0] = null;
        while (!queue.isEmpty()) {
            int s = queue.poll();
            List<Integer> out = new ArrayList<>(ends.get(s));
            if (outputs[fail[s]] != null) {
                for (int id : outputs[fail[s]]) {
                    out.add(id);
                }
            }
            outputs[s] = out.isEmpty() ? null : out.stream().mapToInt(Integer::intValue).toArray();
            for (int col = 0; col < end; col++) {
                int child = gotoRows.get(s)[col];
                if (child != 0) {
                    fail[child] = delta[(fail[s] << shift) + col];
                    delta[(s << shift) + col] = child;
                    queue.add(child);
                } else {
                    delta[(s << shift) + col] = delta[(fail[s] << shift) + col];
                }
            }
        }
    }

    private int column(char c) {
        if (c < 128) {
            return asciiColumn[c];
        }
        if (otherChars.length == 0) {
            return 0;
        }
        int k = Arrays.binarySearch(otherChars, c);
        return k < 0 ? 0 : firstOther + k;
    }

    /**
     * Sets {@code seen[id] = stamp} for every literal {@code id} occurring in {@code s}, and lists each such id once
     * in {@code found} (as long as the literals); returns how many it listed.
     */
    int scan(String s, int[] seen, int stamp, int[] found) {
        int count = 0;
        int state = 0;
        int n = s.length();
        int i = 0;
        while (i < n) {
            if (state == 0) {
                // no literal is under way: none begins before the next position whose two characters begin one
                int a = column(s.charAt(i));
                while (true) {
                    int b = i + 1 < n ? column(s.charAt(i + 1)) : end;
                    if (starts[a << shift | b]) {
                        break;
                    }
                    if (++i == n) {
                        return count;
                    }
                    a = b;
                }
            }
            state = delta[(state << shift) | column(s.charAt(i))];
            i++;
            int[] out = outputs[state];
            if (out != null) {
                for (int id : out) {
                    if (seen[id] != stamp) {
                        seen[id] = stamp;
                        found[count++] = id;
                    }
                }
            }
        }
        return count;
    }
}
