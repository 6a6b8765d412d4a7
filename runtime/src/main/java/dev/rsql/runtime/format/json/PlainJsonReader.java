package dev.rsql.runtime.format.json;

import dev.rsql.runtime.format.EpochWallClock;
import dev.rsql.runtime.format.Utf8;
import dev.rsql.runtime.types.DataType;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a record that is plain JSON straight from its UTF-8 bytes into a row, without fastjson2: an object of
 * members whose values are strings, integers, decimals, booleans, nulls and nested objects of declared ROW fields,
 * with standard escapes and well-formed UTF-8. Anything else (a syntax error, a value of another JSON type than the
 * column's usual one, an array or map column, a value out of range) makes {@link #read} answer {@link #NOT_PLAIN},
 * and the record is read again by fastjson2, which gives the row or the error. So whatever this reader accepts it
 * reads exactly as the fastjson2 path would; it only reads the usual record faster: member names are compared with
 * the names the previous record had at the same place (records of one source mostly list their members in one
 * order), strings are scanned eight bytes at a time and copied once, numbers are read digit by digit, and the
 * payload's UTF-8 is checked only inside strings that hold other than ASCII.
 */
final class PlainJsonReader {

    /** The answer for a record this reader leaves to fastjson2. */
    static final Object[] NOT_PLAIN = new Object[0];

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;
    private static final long SPACES = 0x2020202020202020L;

    /** Thrown inside a reading to give the record up; never escapes {@link #read}. */
    private static final RuntimeException GIVE_UP = new RuntimeException("not plain JSON", null, false, false) {
    };

    private static final int STRING = 0;
    private static final int INT = 1;
    private static final int BIGINT = 2;
    private static final int SMALL_INTEGRAL = 3;
    private static final int DOUBLE = 4;
    private static final int FLOAT = 5;
    private static final int DECIMAL = 6;
    private static final int BOOLEAN = 7;
    private static final int TIMESTAMP = 8;
    private static final int TIMESTAMP_LTZ = 9;
    private static final int DATE = 10;
    private static final int TIME = 11;
    private static final int ROW = 12;
    /** A type this reader does not read: a record with a value for it is given up. */
    private static final int OTHER = 13;

    private final Layout record;
    private final int maxDepth;
    private final EpochWallClock epochs;
    private byte[] in;
    private int pos;
    private int end;
    private char[] chars = new char[64];

    /**
     * @param fields the record's fields as the fastjson2 path reads them (their names and which are decoded)
     * @param types  the declared types of the fields
     */
    PlainJsonReader(FieldTable fields, List<DataType> types, JsonSyntax syntax, EpochWallClock epochs) {
        this.record = new Layout(fields, types);
        this.maxDepth = syntax.maxDepth;
        this.epochs = epochs;
    }

    /**
     * Whether a record of these fields can be read here at all: false when a decoded field has a type this reader
     * never reads, so that no record is read twice for it.
     */
    boolean usable() {
        return record.usable;
    }

    /**
     * The row of the object in {@code bytes[from, to)}, with field i at {@code positions[i]} of a new array of
     * {@code arity} values, or {@link #NOT_PLAIN}.
     */
    Object[] read(byte[] bytes, int from, int to, int[] positions, int arity) {
        in = bytes;
        pos = from;
        end = to;
        try {
            skipSpace();
            if (pos >= end || in[pos] != '{') {
                return NOT_PLAIN;
            }
            pos++;
            Object[] row = new Object[arity];
            readObject(record, row, positions, 1);
            skipSpace();
            return pos == end ? row : NOT_PLAIN;
        } catch (RuntimeException e) {
            // GIVE_UP, or what a value's conversion threw: fastjson2's reading reports it
            return NOT_PLAIN;
        } finally {
            in = null;
        }
    }

    /** Reads the members of an object whose '{' was consumed, up to and including its '}'. */
    private void readObject(Layout layout, Object[] target, int[] positions, int level) {
        skipSpace();
        if (peek() == '}') {
            pos++;
            return;
        }
        int member = 0;
        while (true) {
            if (peek() != '"') {
                throw GIVE_UP;
            }
            int field = layout.field(this, member++);
            if (field < 0) {
                skipValue(level);
            } else {
                Object v = readValue(layout, field, level);
                target[positions == null ? field : positions[field]] = v;
            }
            byte c = peek();
            if (c <= ' ') {
                skipSpace();
                c = peek();
            }
            pos++;
            if (c == ',') {
                skipSpace();
            } else if (c == '}') {
                return;
            } else {
                throw GIVE_UP;
            }
        }
    }

    private Object readValue(Layout layout, int field, int level) {
        byte c = peek();
        if (c == 'n') {
            literal("null");
            return null;
        }
        int kind = layout.kinds[field];
        switch (kind) {
            case STRING:
                return c == '"' ? readString() : giveUp();
            case INT: {
                long v = readLong(c);
                if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                    throw GIVE_UP;
                }
                return (int) v;
            }
            case BIGINT:
                return readLong(c);
            case SMALL_INTEGRAL:
                return ValueText.integral(layout.types[field], readLong(c));
            case DOUBLE:
                return notNegativeZero(Double.parseDouble(numberText(c)));
            case FLOAT:
                return (float) notNegativeZero(Float.parseFloat(numberText(c)));
            case DECIMAL: {
                BigDecimal bd = new BigDecimal(numberText(c));
                return ValueText.fitDecimal(bd, layout.types[field], bd);
            }
            case BOOLEAN:
                if (c == 't') {
                    literal("true");
                    return Boolean.TRUE;
                }
                literal("false");
                return Boolean.FALSE;
            case TIMESTAMP:
                if (c == '"') {
                    long fixed = fixedTimestamp();
                    return fixed != ValueText.NOT_FIXED ? fixed : ValueText.parseTimestamp(readString(), epochs);
                }
                return epochs.wallClock(readLong(c));
            case TIMESTAMP_LTZ:
                return c == '"' ? ValueText.parseTimestamp(readString()) : readLong(c);
            case DATE:
                return c == '"' ? ValueText.parseDate(readString()) : giveUp();
            case TIME:
                return c == '"' ? ValueText.parseTime(readString()) : giveUp();
            case ROW: {
                if (c != '{' || level + 1 > maxDepth) {
                    throw GIVE_UP;
                }
                pos++;
                Layout nested = layout.rows[field];
                Object[] row = new Object[nested.kinds.length];
                readObject(nested, row, null, level + 1);
                return row;
            }
            default:
                throw GIVE_UP;
        }
    }

    /**
     * The timestamp of the string at {@link #pos} when it has the usual layout (consumed), else {@link
     * ValueText#NOT_FIXED} (nothing consumed).
     */
    private long fixedTimestamp() {
        int start = pos + 1;
        int stop = special(start);
        if (in[stop] != '"') {
            return ValueText.NOT_FIXED;
        }
        long fixed = ValueText.fixedLayout(in, start, stop - start);
        if (fixed != ValueText.NOT_FIXED) {
            pos = stop + 1;
        }
        return fixed;
    }

    /** fastjson2 reads -0.0 as 0.0: such a record is left to it, so that both readings agree. */
    private static double notNegativeZero(double v) {
        if (v == 0 && Double.doubleToRawLongBits(v) != 0) {
            throw GIVE_UP;
        }
        return v;
    }

    private static Object giveUp() {
        throw GIVE_UP;
    }

    // ------------------------------------------------------------------------------------------ strings

    /**
     * The string at {@link #pos} (its opening quote), consumed. ASCII without escapes is copied as it is; other
     * UTF-8 is checked and decoded; escapes are decoded into a scratch array.
     */
    private String readString() {
        int start = pos + 1;
        int i = special(start);
        byte c = in[i];
        if (c == '"') {
            pos = i + 1;
            return new String(in, start, i - start, StandardCharsets.ISO_8859_1);
        }
        // escapes or other than ASCII: find the end, then decode
        boolean ascii = true;
        boolean escaped = false;
        while (true) {
            c = in[i];
            if (c == '"') {
                break;
            }
            if (c == '\\') {
                escaped = true;
                i += 2;
            } else if (c < 0) {
                ascii = false;
                i++;
            } else if (c < 0x20) {
                throw GIVE_UP;
            } else {
                i++;
            }
            i = special(i);
        }
        int stop = i;
        pos = stop + 1;
        if (!ascii && Utf8.firstInvalid(in, start, stop) >= 0) {
            throw GIVE_UP;
        }
        if (!escaped) {
            return new String(in, start, stop - start, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
        }
        return unescape(start, stop, ascii);
    }

    /** The text of {@code in[from, to)} (valid UTF-8 ending before the closing quote) with its escapes decoded. */
    private String unescape(int from, int to, boolean ascii) {
        if (!ascii) {
            // decode the UTF-8 first (escapes are ASCII and survive it), then the escapes
            String raw = new String(in, from, to - from, StandardCharsets.UTF_8);
            char[] out = scratch(raw.length());
            int n = 0;
            for (int i = 0; i < raw.length(); ) {
                char c = raw.charAt(i);
                if (c != '\\') {
                    out[n++] = c;
                    i++;
                } else {
                    out[n++] = escape(raw.charAt(i + 1), raw, i + 2);
                    i += raw.charAt(i + 1) == 'u' ? 6 : 2;
                }
            }
            return new String(out, 0, n);
        }
        char[] out = scratch(to - from);
        int n = 0;
        for (int i = from; i < to; ) {
            byte c = in[i];
            if (c != '\\') {
                out[n++] = (char) c;
                i++;
            } else {
                char e = (char) in[i + 1];
                out[n++] = escape(e, null, i + 2);
                i += e == 'u' ? 6 : 2;
            }
        }
        return new String(out, 0, n);
    }

    /** The character of the escape {@code \e}; for {@code \\u}, the four hex digits at {@code at}. */
    private char escape(char e, String raw, int at) {
        switch (e) {
            case '"':
            case '\\':
            case '/':
                return e;
            case 'b':
                return '\b';
            case 'f':
                return '\f';
            case 'n':
                return '\n';
            case 'r':
                return '\r';
            case 't':
                return '\t';
            case 'u': {
                int v = 0;
                for (int k = 0; k < 4; k++) {
                    int h = hex(raw == null ? (char) in[at + k] : raw.charAt(at + k));
                    v = v << 4 | h;
                }
                if (Character.isSurrogate((char) v)) {
                    throw GIVE_UP;      // fastjson2 decides what a lone or paired surrogate escape gives
                }
                return (char) v;
            }
            default:
                throw GIVE_UP;
        }
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        throw GIVE_UP;
    }

    private char[] scratch(int length) {
        if (chars.length < length) {
            chars = new char[Math.max(length, chars.length * 2)];
        }
        return chars;
    }

    /**
     * The index of the first byte from {@code i} that is a quote, a backslash, a control character or not ASCII;
     * gives up at the end of the record. Eight bytes at a time: a byte equal to b is a zero byte of the word xor b.
     */
    private int special(int i) {
        while (i + 8 <= end) {
            long w = (long) LONGS.get(in, i);
            long q = w ^ QUOTES;
            long s = w ^ BACKSLASHES;
            long found = ((q - ONES) & ~q) | ((s - ONES) & ~s) | (w - SPACES) | w;
            found &= HIGHS;
            if (found != 0) {
                // borrows only run upwards, so the lowest flagged byte is a real one
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
            i += 8;
        }
        while (i < end) {
            byte c = in[i];
            if (c == '"' || c == '\\' || c < 0x20) {
                return i;
            }
            i++;
        }
        throw GIVE_UP;
    }

    // ------------------------------------------------------------------------------------------ numbers

    /** A JSON integer (no fraction or exponent) of at most 18 digits, consumed. */
    private long readLong(byte first) {
        int i = pos;
        boolean negative = first == '-';
        if (negative) {
            i++;
        }
        int digitsFrom = i;
        long v = 0;
        while (i < end) {
            int d = in[i] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            v = v * 10 + d;
            i++;
        }
        int digits = i - digitsFrom;
        if (digits == 0 || digits > 18 || (digits > 1 && in[digitsFrom] == '0')) {
            throw GIVE_UP;
        }
        if (i < end) {
            byte c = in[i];
            if (c == '.' || c == 'e' || c == 'E') {
                throw GIVE_UP;
            }
        }
        pos = i;
        return negative ? -v : v;
    }

    /**
     * The text of a JSON number (RFC 8259 grammar) of at most 18 digits before the exponent, consumed: fastjson2
     * reads some longer ones as errors, so they are left to it.
     */
    private String numberText(byte first) {
        int from = pos;
        int i = from;
        if (first == '-') {
            i++;
        }
        int intFrom = i;
        i = digits(i);
        if (i == intFrom || (i - intFrom > 1 && in[intFrom] == '0')) {
            throw GIVE_UP;
        }
        int digits = i - intFrom;
        if (i < end && in[i] == '.') {
            int f = i + 1;
            i = digits(f);
            if (i == f) {
                throw GIVE_UP;
            }
            digits += i - f;
        }
        if (digits > 18) {
            throw GIVE_UP;
        }
        if (i < end && (in[i] == 'e' || in[i] == 'E')) {
            i++;
            if (i < end && (in[i] == '+' || in[i] == '-')) {
                i++;
            }
            int e = i;
            i = digits(e);
            if (i == e) {
                throw GIVE_UP;
            }
        }
        pos = i;
        return new String(in, from, i - from, StandardCharsets.ISO_8859_1);
    }

    private int digits(int i) {
        while (i < end && in[i] >= '0' && in[i] <= '9') {
            i++;
        }
        return i;
    }

    // ------------------------------------------------------------------------------------------ skipping

    /**
     * Skips the value at {@link #pos}, of any nesting, checking its syntax; the containers it opens count towards
     * the nesting limit from {@code level}.
     */
    private void skipValue(int level) {
        long objects = 0;       // bit k: the container k levels into the value is an object
        int open = 0;
        while (true) {
            byte c = peek();
            if (c == '{' || c == '[') {
                open++;
                if (open >= 64 || level + open > maxDepth) {
                    throw GIVE_UP;
                }
                objects = c == '{' ? objects | (1L << open) : objects & ~(1L << open);
                pos++;
                skipSpace();
                if (peek() != (c == '{' ? '}' : ']')) {
                    if (c == '{') {
                        skipName();
                    }
                    continue;   // to the container's first value
                }
                pos++;
                open--;
            } else {
                skipScalar(c);
            }
            // after a value: close the containers that end here, or stand before the next value
            while (open > 0) {
                skipSpace();
                byte next = peek();
                pos++;
                boolean object = (objects & (1L << open)) != 0;
                if (next == ',') {
                    skipSpace();
                    if (object) {
                        skipName();
                    }
                    break;
                }
                if (next != (object ? '}' : ']')) {
                    throw GIVE_UP;
                }
                open--;
            }
            if (open == 0) {
                return;
            }
        }
    }

    private void skipScalar(byte c) {
        switch (c) {
            case '"':
                readString();
                return;
            case 't':
                literal("true");
                return;
            case 'f':
                literal("false");
                return;
            case 'n':
                literal("null");
                return;
            default:
                numberText(c);
        }
    }

    /** Skips a member name and its colon. */
    private void skipName() {
        if (peek() != '"') {
            throw GIVE_UP;
        }
        readString();
        skipSpace();
        expect(':');
        skipSpace();
    }

    // ------------------------------------------------------------------------------------------ tokens

    /** Whether the {@code length} bytes at {@code at} are those of {@code words} (see {@link Layout#words}). */
    private boolean startsWith(int at, long[] words, int length) {
        if (at + length > end) {
            return false;
        }
        if (at + (words.length << 3) > in.length) {
            // too near the array's end to read whole words
            for (int i = 0; i < length; i++) {
                if (in[at + i] != (byte) (words[i >>> 3] >>> ((i & 7) << 3))) {
                    return false;
                }
            }
            return true;
        }
        int last = words.length - 1;
        for (int k = 0; k < last; k++) {
            if ((long) LONGS.get(in, at + (k << 3)) != words[k]) {
                return false;
            }
        }
        int rest = length - (last << 3);
        long mask = rest == 8 ? -1L : (1L << (rest << 3)) - 1;
        return (((long) LONGS.get(in, at + (last << 3)) ^ words[last]) & mask) == 0;
    }

    private byte peek() {
        if (pos >= end) {
            throw GIVE_UP;
        }
        return in[pos];
    }

    private void expect(char c) {
        if (peek() != c) {
            throw GIVE_UP;
        }
        pos++;
    }

    private void literal(String word) {
        int n = word.length();
        if (pos + n > end) {
            throw GIVE_UP;
        }
        for (int k = 0; k < n; k++) {
            if (in[pos + k] != word.charAt(k)) {
                throw GIVE_UP;
            }
        }
        pos += n;
    }

    private void skipSpace() {
        if (pos < end && in[pos] > ' ') {
            return;     // the usual case
        }
        while (pos < end) {
            byte c = in[pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            pos++;
        }
    }

    // ------------------------------------------------------------------------------------------ layouts

    /** The declared fields of one object type, and the member names seen so far. */
    private static final class Layout {

        private static final int MAX_PREDICTED = 64;
        private static final int MAX_CACHED = 4096;

        final int[] kinds;
        final DataType[] types;
        final Layout[] rows;
        final boolean usable;
        private final FieldTable table;
        /**
         * The name of the k-th member of the last record with what followed it up to its value (closing quote,
         * colon, spaces), as little-endian words of its bytes; its length in bytes; its field (or -1 to skip).
         */
        private final long[][] predicted = new long[MAX_PREDICTED][];
        private final int[] predictedLength = new int[MAX_PREDICTED];
        private final int[] predictedField = new int[MAX_PREDICTED];
        /** Names resolved so far: open addressing by {@link #hash}. */
        private byte[][] names = new byte[16][];
        private int[] fields = new int[16];
        private int size;

        Layout(FieldTable table, List<DataType> declared) {
            this.table = table;
            int n = declared.size();
            kinds = new int[n];
            types = declared.toArray(new DataType[0]);
            rows = new Layout[n];
            boolean ok = true;
            for (int i = 0; i < n; i++) {
                kinds[i] = kindOf(types[i]);
                boolean decoded = table.indexOf(table.name(i)) == i;
                if (kinds[i] == ROW && decoded) {
                    rows[i] = new Layout(table.rowFields(i), types[i].fieldTypes());
                    ok &= rows[i].usable;
                }
                ok &= kinds[i] != OTHER || !decoded;
            }
            usable = ok;
        }

        private static int kindOf(DataType type) {
            switch (type.kind()) {
                case CHAR:
                case VARCHAR:
                    return STRING;
                case INT:
                    return INT;
                case BIGINT:
                    return BIGINT;
                case TINYINT:
                case SMALLINT:
                    return SMALL_INTEGRAL;
                case DOUBLE:
                    return DOUBLE;
                case FLOAT:
                    return FLOAT;
                case DECIMAL:
                    return DECIMAL;
                case BOOLEAN:
                    return BOOLEAN;
                case TIMESTAMP:
                    return TIMESTAMP;
                case TIMESTAMP_LTZ:
                    return TIMESTAMP_LTZ;
                case DATE:
                    return DATE;
                case TIME:
                    return TIME;
                case ROW:
                    return ROW;
                default:
                    return OTHER;
            }
        }

        /**
         * The field of the member name at the reader's position (its opening quote), consumed with the colon and the
         * spaces up to the value; -1 to skip.
         */
        int field(PlainJsonReader r, int member) {
            byte[] in = r.in;
            int start = r.pos + 1;
            if (member < MAX_PREDICTED && predicted[member] != null
                    && r.startsWith(start, predicted[member], predictedLength[member])) {
                r.pos = start + predictedLength[member];
                return predictedField[member];
            }
            int stop = r.special(start);
            if (in[stop] != '"') {
                throw GIVE_UP;      // escapes or other than ASCII in a name
            }
            r.pos = stop + 1;
            r.skipSpace();
            r.expect(':');
            r.skipSpace();
            int field = lookup(in, start, stop);
            if (member < MAX_PREDICTED) {
                predicted[member] = words(in, start, r.pos);
                predictedLength[member] = r.pos - start;
                predictedField[member] = field;
            }
            return field;
        }

        private int lookup(byte[] in, int from, int to) {
            int mask = names.length - 1;
            int i = hash(in, from, to) & mask;
            while (names[i] != null) {
                if (Arrays.equals(names[i], 0, names[i].length, in, from, to)) {
                    return fields[i];
                }
                i = (i + 1) & mask;
            }
            int field = table.indexOf(new String(in, from, to - from, StandardCharsets.ISO_8859_1));
            if (size < MAX_CACHED) {
                if ((size + 1) * 2 > names.length) {
                    grow();
                    return lookup(in, from, to);
                }
                names[i] = Arrays.copyOfRange(in, from, to);
                fields[i] = field;
                size++;
            }
            return field;
        }

        private void grow() {
            byte[][] oldNames = names;
            int[] oldFields = fields;
            names = new byte[oldNames.length * 2][];
            fields = new int[oldNames.length * 2];
            int mask = names.length - 1;
            for (int k = 0; k < oldNames.length; k++) {
                byte[] name = oldNames[k];
                if (name != null) {
                    int i = hash(name, 0, name.length) & mask;
                    while (names[i] != null) {
                        i = (i + 1) & mask;
                    }
                    names[i] = name;
                    fields[i] = oldFields[k];
                }
            }
        }

        /** The bytes {@code b[from, to)} as little-endian words, the last padded with zeros. */
        private static long[] words(byte[] b, int from, int to) {
            long[] words = new long[(to - from + 7) >>> 3];
            for (int i = from; i < to; i++) {
                words[(i - from) >>> 3] |= (b[i] & 0xFFL) << (((i - from) & 7) << 3);
            }
            return words;
        }

        private static int hash(byte[] b, int from, int to) {
            int h = 0x811C9DC5;
            for (int i = from; i < to; i++) {
                h = (h ^ b[i]) * 0x01000193;
            }
            return h ^ (h >>> 16);
        }
    }
}
