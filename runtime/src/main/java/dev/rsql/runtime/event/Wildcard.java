package dev.rsql.runtime.event;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code wildcard}: {@code *} stands for any run of characters (none included), {@code \*} for a star and {@code \\}
 * for a backslash; two stars in a row are refused, as event-ruler does.
 */
final class Wildcard implements ValueTest {

    /** The literal pieces between the stars; the first and last are empty when the pattern starts or ends with one. */
    private final String[] pieces;

    private Wildcard(String[] pieces) {
        this.pieces = pieces;
    }

    /** @throws IllegalArgumentException naming the index in {@code pattern} of a mistake */
    static Wildcard compile(String pattern) {
        List<String> pieces = new ArrayList<>();
        StringBuilder piece = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\') {
                char next = i + 1 < pattern.length() ? pattern.charAt(i + 1) : 0;
                if (next != '*' && next != '\\') {
                    throw new WildcardException(i, "a backslash in a wildcard escapes only '*' or '\\'");
                }
                piece.append(next);
                i++;
            } else if (c == '*') {
                if (i + 1 < pattern.length() && pattern.charAt(i + 1) == '*') {
                    throw new WildcardException(i, "two '*' in a row in a wildcard");
                }
                pieces.add(piece.toString());
                piece.setLength(0);
            } else {
                piece.append(c);
            }
        }
        pieces.add(piece.toString());
        return new Wildcard(pieces.toArray(new String[0]));
    }

    /** A mistake at {@code index} of the wildcard's text. */
    static final class WildcardException extends IllegalArgumentException {
        final int index;

        WildcardException(int index, String message) {
            super(message);
            this.index = index;
        }
    }

    @Override
    public boolean test(Object value) {
        if (!(value instanceof String)) {
            return false;
        }
        String s = (String) value;
        String first = pieces[0];
        if (pieces.length == 1) {
            return s.equals(first);
        }
        String last = pieces[pieces.length - 1];
        if (s.length() < first.length() + last.length() || !s.startsWith(first) || !s.endsWith(last)) {
            return false;
        }
        // the middle pieces, leftmost first, between the first and the last: greedy is right for '*'
        int from = first.length();
        int end = s.length() - last.length();
        for (int k = 1; k < pieces.length - 1; k++) {
            int at = s.indexOf(pieces[k], from);
            if (at < 0 || at + pieces[k].length() > end) {
                return false;
            }
            from = at + pieces[k].length();
        }
        return true;
    }
}
