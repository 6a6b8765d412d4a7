package dev.rsql.runtime.format.csv;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.format.json.ValueText;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

/**
 * Encodes a row as one delimited line (no line break). Values as their text (timestamps
 * {@code yyyy-MM-dd HH:mm:ss.SSS}, bytes in base64, ARRAY/MAP/ROW as JSON); NULL as {@code null-literal} (default
 * empty). A field is quoted when it contains the delimiter, the quote character or a line break, or when it would
 * otherwise read back as NULL.
 */
final class CsvRowEncoder implements RowEncoder {

    private final CsvOptions opts;
    private final DataType[] types;
    private final StringBuilder sb = new StringBuilder(256);

    CsvRowEncoder(FormatContext ctx) {
        this.opts = new CsvOptions(ctx.options(), ctx.tableName());
        RowType rt = ctx.rowType();
        types = rt.types().toArray(new DataType[0]);
    }

    @Override
    public byte[] encode(Row row) {
        StringBuilder b = sb;
        b.setLength(0);
        Object[] values = row.fields();
        for (int i = 0; i < types.length; i++) {
            if (i > 0) {
                b.append(opts.delimiter);
            }
            Object v = values[i];
            if (v == null) {
                if (opts.nullLiteral != null) {
                    b.append(opts.nullLiteral);
                }
                continue;
            }
            String text = types[i].kind().isCharacter() ? v.toString() : ValueText.toText(types[i], v, false);
            append(b, text, i == 0);
        }
        return b.toString().getBytes(opts.charset);
    }

    private void append(StringBuilder b, String text, boolean firstField) {
        boolean needsQuotes = (opts.nullLiteral != null && (text.equals(opts.nullLiteral) || text.isEmpty()))
                || text.contains(opts.delimiter) || text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0
                || (opts.quote != 0 && !text.isEmpty() && text.charAt(0) == opts.quote)
                || (opts.quote != 0 && text.indexOf(opts.quote) >= 0)
                || (opts.escape != 0 && text.indexOf(opts.escape) >= 0)
                || (opts.allowComments && !text.isEmpty() && text.charAt(0) == '#' && firstField);
        if (!needsQuotes) {
            b.append(text);
            return;
        }
        if (opts.quote == 0) {
            // no quoting: escape special characters if an escape character is configured, else write as is
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (opts.escape != 0 && (c == opts.escape || opts.delimiter.indexOf(c) >= 0 || c == '\n' || c == '\r')) {
                    b.append(opts.escape);
                }
                b.append(c);
            }
            return;
        }
        b.append(opts.quote);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == opts.quote) {
                b.append(opts.quote);
            } else if (opts.escape != 0 && c == opts.escape) {
                b.append(opts.escape);
            }
            b.append(c);
        }
        b.append(opts.quote);
    }
}
