package dev.rsql.runtime.format.json;

import com.alibaba.fastjson2.JSON;
import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Writes each row as a CloudEvent 1.0 in structured mode: {@code specversion} "1.0", then the columns as attributes
 * by name (timestamps in RFC 3339; a TIMESTAMP without zone is taken as UTC), column {@code data} as the event's data (a ROW as a JSON object; a STRING holding
 * JSON as that JSON when the content type is JSON, else as a string; BYTES as {@code data_base64}). Without an
 * {@code id} (no column, or NULL) the id is a hash of the rest of the event, so a replayed row gets the id it had and
 * a consumer can drop the repeat; {@code source} and {@code type} come from their columns or from the options
 * {@code cloudevents.default-source} and {@code cloudevents.default-type}.
 */
final class CloudEventsRowEncoder implements RowEncoder {

    private final RowType columns;
    private final JsonValueWriter[] writers;
    private final byte[][] names;
    private final int id;
    private final int data;
    private final int contentType;
    private final byte[] defaults;
    private final JsonOut out = new JsonOut();
    private final JsonOut rest = new JsonOut();
    private final MessageDigest sha256;

    CloudEventsRowEncoder(FormatContext ctx) {
        this.columns = ctx.rowType();
        int n = columns.size();
        writers = new JsonValueWriter[n];
        names = new byte[n][];
        int idColumn = -1;
        int dataColumn = -1;
        int typeColumn = -1;
        int sourceColumn = -1;
        int contentTypeColumn = -1;
        for (int i = 0; i < n; i++) {
            String name = columns.name(i).toLowerCase(Locale.ROOT);
            switch (name) {
                case "id" -> idColumn = i;
                case "data" -> dataColumn = i;
                case "type" -> typeColumn = i;
                case "source" -> sourceColumn = i;
                case "datacontenttype" -> contentTypeColumn = i;
                case "specversion" -> throw new ConfigException("table " + ctx.tableName() + ": column specversion is "
                        + "written by the cloudevents format (1.0); drop it from the table");
                default -> {
                    if (!name.matches("[a-z0-9]+")) {
                        throw new ConfigException("table " + ctx.tableName() + ": column " + columns.name(i)
                                + " cannot be a CloudEvents attribute: attribute names are lower-case letters and"
                                + " digits");
                    }
                }
            }
            // RFC 3339 needs an offset: a wall-clock TIMESTAMP time is written as UTC
            DataType type = name.equals("time") && columns.type(i).kind() == DataType.Kind.TIMESTAMP
                    ? DataType.withPrecision(DataType.Kind.TIMESTAMP_LTZ, 3, 0) : columns.type(i);
            writers[i] = new JsonValueWriter(type, true);
            String member = i == dataColumn && columns.type(i).kind().isBinary() ? "data_base64" : name;
            names[i] = JsonValueWriter.memberPrefix(member, true);
        }
        this.id = idColumn;
        this.data = dataColumn;
        this.contentType = contentTypeColumn;
        StringBuilder d = new StringBuilder();
        if (sourceColumn < 0) {
            d.append(",\"source\":").append(JsonValueWriter.toJson(DataType.string(),
                    required(ctx, "default-source", "source")));
        }
        if (typeColumn < 0) {
            d.append(",\"type\":").append(JsonValueWriter.toJson(DataType.string(),
                    required(ctx, "default-type", "type")));
        }
        this.defaults = d.toString().getBytes(StandardCharsets.UTF_8);
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String required(FormatContext ctx, String option, String attribute) {
        String v = ctx.options().get(option);
        if (v == null || v.isBlank()) {
            throw new ConfigException("table " + ctx.tableName() + ": a CloudEvent needs a " + attribute + ": give the "
                    + "table a column " + attribute + " or the option 'cloudevents." + option + "'");
        }
        return v;
    }

    @Override
    public byte[] encode(Row row) {
        Object[] f = row.fields();
        JsonOut r = rest;
        r.reset();
        r.raw(defaults);
        for (int i = 0; i < f.length; i++) {
            if (i == id || f[i] == null) {
                continue;
            }
            r.raw(names[i]);
            if (i == data && columns.type(i).kind().isCharacter() && isJson(f)) {
                r.raw(((String) f[i]).strip().getBytes(StandardCharsets.UTF_8));
            } else {
                writers[i].write(r, f[i]);
            }
        }
        byte[] attributes = r.toBytes();
        JsonOut o = out;
        o.reset();
        o.ascii("{\"specversion\":\"1.0\",\"id\":");
        if (id >= 0 && f[id] != null) {
            writers[id].write(o, f[id]);
        } else {
            o.raw('"');
            o.ascii(HexFormat.of().formatHex(sha256.digest(attributes), 0, 16));
            o.raw('"');
        }
        o.raw(attributes);
        o.raw('}');
        return o.toBytes();
    }

    /** Whether a STRING data value is JSON to embed: the content type says JSON (or is absent) and it parses. */
    private boolean isJson(Object[] f) {
        String type = contentType >= 0 && f[contentType] != null ? f[contentType].toString() : "application/json";
        return type.toLowerCase(Locale.ROOT).contains("json") && JSON.isValid((String) f[data]);
    }
}
