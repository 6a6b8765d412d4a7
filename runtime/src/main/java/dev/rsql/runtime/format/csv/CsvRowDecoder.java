package dev.rsql.runtime.format.csv;

import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.EpochWallClock;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.json.JsonValueParser;
import dev.rsql.runtime.format.json.ValueException;
import dev.rsql.runtime.format.json.ValueText;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.util.function.Consumer;

/**
 * Decodes delimited text: fields in column order, optionally quoted (a doubled quote inside quotes is a quote). A
 * payload may hold several records separated by line breaks (outside quotes); blank lines, and with
 * {@code allow-comments} lines starting with {@code #}, are skipped. Missing trailing fields are NULL, extra ones
 * are ignored. An empty unquoted field is NULL for non-string columns and the empty string for string columns; a
 * field equal to {@code null-literal} (unquoted) is NULL for every column.
 */
final class CsvRowDecoder implements RowDecoder {

    private final CsvOptions opts;
    private final String[] names;
    private final DataType[] types;
    private final boolean[] isString;
    private final JsonValueParser[] nested;
    private final int[] positions;
    private final int arity;
    /** Fields some query reads; the others are split off but not converted, and stay NULL. */
    private final boolean[] read;
    private final EpochWallClock epochs;
    // Scratch state of the record being parsed.
    private final String[] fields;
    private final boolean[] quoted;
    private final StringBuilder field = new StringBuilder();

    CsvRowDecoder(FormatContext ctx) {
        this.opts = new CsvOptions(ctx.options(), ctx.tableName());
        RowType rt = ctx.rowType();
        int n = rt.size();
        names = rt.names().toArray(new String[0]);
        types = rt.types().toArray(new DataType[0]);
        isString = new boolean[n];
        nested = new JsonValueParser[n];
        for (int i = 0; i < n; i++) {
            DataType.Kind k = types[i].kind();
            isString[i] = k.isCharacter();
            if (k == DataType.Kind.ARRAY || k == DataType.Kind.MULTISET || k == DataType.Kind.MAP || k == DataType.Kind.ROW) {
                nested[i] = JsonValueParser.of(types[i], ctx.epochWallClock());
            }
        }
        epochs = ctx.epochWallClock();
        positions = ctx.targetPositions();
        arity = ctx.targetArity();
        read = new boolean[n];
        for (int i = 0; i < n; i++) {
            read[i] = ctx.isRead(i);
        }
        fields = new String[n];
        quoted = new boolean[n];
    }

    @Override
    public void decode(byte[] payload, Consumer<Object[]> out) throws DecodeException {
        String s = new String(payload, opts.charset);
        int len = s.length();
        int i = 0;
        if (len > 0 && s.charAt(0) == '\uFEFF') {
            i = 1;
        }
        while (i < len) {
            i = parseRecord(s, i, out);
        }
    }

    /** Parses one record starting at {@code i}; returns the index after its line break. */
    private int parseRecord(String s, int start, Consumer<Object[]> out) throws DecodeException {
        int len = s.length();
        // blank line or comment
        int lineEnd;
        if (opts.allowComments && s.charAt(start) == '#') {
            int nl = s.indexOf('\n', start);
            return nl < 0 ? len : nl + 1;
        }
        char first = s.charAt(start);
        if (first == '\n') {
            return start + 1;
        }
        if (first == '\r' && (start + 1 == len || s.charAt(start + 1) == '\n')) {
            return start + 2;
        }
        String delim = opts.delimiter;
        char d0 = delim.charAt(0);
        int dlen = delim.length();
        char quote = opts.quote;
        char escape = opts.escape;
        int count = 0;
        int i = start;
        boolean endOfRecord = false;
        while (!endOfRecord) {
            field.setLength(0);
            boolean isQuoted = false;
            if (quote != 0 && i < len && s.charAt(i) == quote) {
                isQuoted = true;
                i++;
                while (true) {
                    if (i >= len) {
                        throw new DecodeException(count < names.length ? names[count] : null,
                                "unterminated quoted field in line: " + preview(s, start));
                    }
                    char c = s.charAt(i);
                    if (c == escape && escape != 0 && i + 1 < len) {
                        field.append(s.charAt(i + 1));
                        i += 2;
                    } else if (c == quote) {
                        if (i + 1 < len && s.charAt(i + 1) == quote) {
                            field.append(quote);
                            i += 2;
                        } else {
                            i++;
                            break;
                        }
                    } else {
                        field.append(c);
                        i++;
                    }
                }
                // anything between the closing quote and the delimiter is kept (lenient)
            }
            while (true) {
                if (i >= len) {
                    endOfRecord = true;
                    break;
                }
                char c = s.charAt(i);
                if (c == '\n') {
                    i++;
                    endOfRecord = true;
                    break;
                }
                if (c == '\r' && (i + 1 == len || s.charAt(i + 1) == '\n')) {
                    i += i + 1 == len ? 1 : 2;
                    endOfRecord = true;
                    break;
                }
                if (c == d0 && (dlen == 1 || s.startsWith(delim, i))) {
                    i += dlen;
                    break;
                }
                if (c == escape && escape != 0 && i + 1 < len) {
                    field.append(s.charAt(i + 1));
                    i += 2;
                    continue;
                }
                field.append(c);
                i++;
            }
            if (count < fields.length) {
                fields[count] = field.toString();
                quoted[count] = isQuoted;
            }
            count++;
        }
        lineEnd = i;
        Object[] row = new Object[arity];
        int n = Math.min(count, fields.length);
        for (int f = 0; f < n; f++) {
            if (read[f]) {
                row[positions[f]] = convert(f, fields[f], quoted[f]);
            }
        }
        out.accept(row);
        return lineEnd;
    }

    private Object convert(int f, String text, boolean wasQuoted) throws DecodeException {
        if (!wasQuoted && opts.nullLiteral != null && text.equals(opts.nullLiteral)) {
            return null;
        }
        if (isString[f]) {
            return text;
        }
        if (text.isBlank()) {
            return null;
        }
        if (nested[f] != null) {
            try {
                return nested[f].parse(text);
            } catch (ValueException e) {
                throw new DecodeException(e.path() == null ? names[f]
                        : e.path().startsWith("[") ? names[f] + e.path() : names[f] + "." + e.path(), e.reason());
            }
        }
        try {
            if (types[f].kind() == DataType.Kind.TIMESTAMP) {
                return ValueText.parseTimestamp(text, epochs);
            }
            return ValueText.fromString(types[f], text);
        } catch (IllegalArgumentException e) {
            throw new DecodeException(names[f], e.getMessage());
        }
    }

    private static String preview(String s, int start) {
        int end = Math.min(s.length(), start + 200);
        return s.substring(start, end).strip() + (end < s.length() ? "..." : "");
    }
}
