package dev.rsql.planner.functions;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * An Aho-Corasick automaton over a set of literals: one pass over a string, one table lookup per character, tells
 * which of the literals occur in it, however many there are. Characters that occur in no literal share one column
 * of the transition table, so the table stays small.
 */
final class LiteralScanner {

    private final boolean ignoreCase;
    private final int width;
    private final int[] asciiColumn = new int[128];
    private final char[] otherChars;
    private final int[] delta;
    private final int[][] outputs;

    /**
     * @param literals non-empty literals; literal {@code i} is reported as {@code i}
     * @param ignoreCase the literals are ASCII-lower-cased and are looked for in the ASCII-lower-cased string
     */
    LiteralScanner(List<String> literals, boolean ignoreCase) {
        this.ignoreCase = ignoreCase;
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
        otherChars = new char[others.size()];
        int k = 0;
        for (char c : others) {
            otherChars[k++] = c;
        }
        width = columns + otherChars.length;

        // the trie: goto[state * width + column], 0 = none (state 0 is the root, never a child)
        List<int[]> gotoRows = new ArrayList<>();
        List<List<Integer>> ends = new ArrayList<>();
        gotoRows.add(new int[width]);
        ends.add(new ArrayList<>());
        for (int id = 0; id < literals.size(); id++) {
            String literal = literals.get(id);
            int state = 0;
            for (int i = 0; i < literal.length(); i++) {
                int col = column(literal.charAt(i));
                int next = gotoRows.get(state)[col];
                if (next == 0) {
                    next = gotoRows.size();
                    gotoRows.add(new int[width]);
                    ends.add(new ArrayList<>());
                    gotoRows.get(state)[col] = next;
                }
                state = next;
            }
            ends.get(state).add(id);
        }
        int states = gotoRows.size();
        delta = new int[states * width];
        outputs = new int[states][];
        int[] fail = new int[states];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int col = 0; col < width; col++) {
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
            for (int col = 0; col < width; col++) {
                int child = gotoRows.get(s)[col];
                if (child != 0) {
                    fail[child] = delta[fail[s] * width + col];
                    delta[s * width + col] = child;
                    queue.add(child);
                } else {
                    delta[s * width + col] = delta[fail[s] * width + col];
                }
            }
        }
    }

    private int column(char c) {
        if (c < 128) {
            return asciiColumn[c];
        }
        int k = Arrays.binarySearch(otherChars, c);
        return k < 0 ? 0 : width - otherChars.length + k;
    }

    /**
     * Sets {@code seen[id] = stamp} for every literal {@code id} occurring in {@code s}, and lists each such id once
     * in {@code found} (as long as the literals); returns how many it listed.
     */
    int scan(String s, int[] seen, int stamp, int[] found) {
        int count = 0;
        int state = 0;
        int n = s.length();
        boolean noOthers = otherChars.length == 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            int col;
            if (c < 128) {
                col = asciiColumn[ignoreCase && c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c];
            } else {
                col = noOthers ? 0 : column(c);
            }
            state = delta[state * width + col];
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
