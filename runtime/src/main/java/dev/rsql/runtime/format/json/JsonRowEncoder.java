package dev.rsql.runtime.format.json;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.types.RowType;

import java.util.Locale;

/**
 * Encodes a row as one JSON object, columns in order, nulls written as null. A row whose kind is not INSERT gets a
 * change flag member {@code "op"} ({@code -U}, {@code +U}, {@code -D}); when a column is already called {@code op}
 * the first free name of {@code _op}, {@code kind}, {@code _kind}, {@code rowkind}, {@code row_kind} is used.
 *
 * <p>Option {@code timestamp-format.standard}: {@code SQL} (default, {@code yyyy-MM-dd HH:mm:ss.SSS}) or
 * {@code ISO-8601} ({@code yyyy-MM-ddTHH:mm:ss.SSS}).
 */
final class JsonRowEncoder implements RowEncoder {

    private static final String[] FLAG_NAMES = {"op", "_op", "kind", "_kind", "rowkind", "row_kind"};

    private final JsonValueWriter[] writers;
    private final byte[][] prefixes;
    private final byte[] flagPrefix;
    private final JsonOut out = new JsonOut();

    JsonRowEncoder(FormatContext ctx) {
        RowType rowType = ctx.rowType();
        String standard = ctx.options().getOrDefault("SQL", "timestamp-format.standard", "timestampFormat")
                .trim().toUpperCase(Locale.ROOT);
        boolean iso;
        if (standard.equals("SQL")) {
            iso = false;
        } else if (standard.equals("ISO-8601") || standard.equals("ISO8601") || standard.equals("ISO")) {
            iso = true;
        } else {
            throw new ConfigException("option 'timestamp-format.standard' of table " + ctx.tableName()
                    + " must be SQL or ISO-8601, got '" + standard + "'");
        }
        int n = rowType.size();
        writers = new JsonValueWriter[n];
        prefixes = new byte[n][];
        for (int i = 0; i < n; i++) {
            writers[i] = new JsonValueWriter(rowType.type(i), iso);
            prefixes[i] = JsonValueWriter.memberPrefix(rowType.name(i), i > 0);
        }
        String flag = "op";
        for (String candidate : FLAG_NAMES) {
            boolean clash = false;
            for (String name : rowType.names()) {
                clash |= name.equalsIgnoreCase(candidate);
            }
            if (!clash) {
                flag = candidate;
                break;
            }
        }
        flagPrefix = JsonValueWriter.memberPrefix(flag, n > 0);
    }

    @Override
    public byte[] encode(Row row) {
        JsonOut o = out;
        o.reset();
        o.raw('{');
        writeMembers(o, row.fields());
        if (row.kind() != RowKind.INSERT) {
            o.raw(flagPrefix);
            o.raw('"');
            o.ascii(row.kind().shortString());
            o.raw('"');
        }
        o.raw('}');
        return o.toBytes();
    }

    /** The row as a JSON object, for formats that wrap it (the changelog formats). */
    void writeObject(JsonOut o, Object[] fields) {
        o.raw('{');
        writeMembers(o, fields);
        o.raw('}');
    }

    private void writeMembers(JsonOut o, Object[] fields) {
        for (int i = 0; i < writers.length; i++) {
            o.raw(prefixes[i]);
            writers[i].write(o, fields[i]);
        }
    }
}
