package dev.rsql.runtime.format.json;

import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONReader;
import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.EpochWallClock;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.FormatFactory;
import dev.rsql.runtime.format.FormatMetadata;
import dev.rsql.runtime.format.Utf8;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What the changelog formats {@code debezium-json}, {@code canal-json} and {@code maxwell-json} share in reading: a
 * payload is an envelope object whose members hold the table's rows as JSON objects, read as the {@code json} format
 * reads a record (members by name, strings accepted for numbers, strict syntax), plus the kind of change. One instance
 * per decoder.
 *
 * <p>A message that cannot be read is a record error, to which the table's error policy applies
 * ({@code <format>.ignore-parse-errors} = true means the policy {@code skip}). Options, with or without the format's
 * prefix: the json format's {@code lenient} and {@code max-nesting-depth}.
 */
final class ChangelogJsonReader {

    /** Marks a field an {@code old} object (canal-json, maxwell-json) does not hold: the field did not change. */
    private static final Object UNCHANGED = new Object();

    /** The members of an envelope object, read or skipped one by one. */
    interface Envelope {
        /** Before the first member: forgets the previous payload's (also before a second reading of one payload). */
        void begin();

        /** Reads or skips the value of a member of the object at nesting {@code level} (1 for the payload). */
        void member(long nameHash, JSONReader r, int level) throws ValueException;

        /** The value of metadata {@code key} ({@link FormatFactory#readableMetadata}) in the message read. */
        default Object metadata(String key) {
            return null;
        }
    }

    final String format;
    private final JsonSyntax syntax;
    private final FieldTable fields;
    private final int[] positions;
    private final int arity;
    private final FormatMetadata.Filled[] metadata;
    private final EpochWallClock wallClock;
    /** The payload being read, for errors. */
    private byte[] payload;

    ChangelogJsonReader(String format, FormatContext ctx) {
        this.format = format;
        this.syntax = JsonSyntax.of(ctx.options());
        RowType rowType = ctx.rowType();
        this.fields = new FieldTable(rowType.names(), rowType.types(), false, syntax, ctx.epochWallClock(), ctx::isRead);
        this.positions = ctx.targetPositions();
        this.arity = ctx.targetArity();
        this.metadata = ctx.metadata().toArray(new FormatMetadata.Filled[0]);
        this.wallClock = ctx.epochWallClock();
    }

    /** Whether the table has metadata columns the format fills: only then are the members holding them read. */
    boolean readsMetadata() {
        return metadata.length > 0;
    }

    /** The row with its metadata columns filled from the message read. */
    Object[] withMetadata(Object[] row, Envelope envelope) {
        for (FormatMetadata.Filled m : metadata) {
            row[m.position()] = FormatMetadata.convert(envelope.metadata(m.key()), m.type(), wallClock);
        }
        return row;
    }

    /** Metadata keys with their types: the timestamps are TIMESTAMP_LTZ(3), the others STRING. */
    static Map<String, DataType> metadataTypes(String... keys) {
        Map<String, DataType> out = new LinkedHashMap<>();
        for (String k : keys) {
            out.put(k, k.endsWith("timestamp") ? DataType.withPrecision(DataType.Kind.TIMESTAMP_LTZ, 3, 0)
                    : DataType.string());
        }
        return Collections.unmodifiableMap(out);
    }

    /** A regular expression option such as canal-json's {@code database.include}, or null when not set. */
    static Pattern pattern(FormatContext ctx, String format, String key) {
        String regex = ctx.options().get(key);
        if (regex == null) {
            return null;
        }
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new ConfigException("option '" + format + "." + key + "' of table "
                    + ctx.tableName() + " is not a regular expression: " + e.getDescription());
        }
    }

    /** Reads the payload's envelope object member by member. */
    void read(byte[] buffer, int offset, int length, Envelope envelope) throws DecodeException {
        payload = offset == 0 && length == buffer.length ? buffer
                : Arrays.copyOfRange(buffer, offset, offset + length); // fastjson2 may read past a range's end
        if (syntax.strict) {
            int bad = Utf8.firstInvalid(payload, 0, payload.length);
            if (bad >= 0) {
                throw error("malformed JSON: invalid UTF-8 at byte " + bad);
            }
        }
        try {
            read(JSONReader.of(payload, 0, payload.length, syntax.context), envelope);
        } catch (JSONException e) {
            // fastjson2's UTF-8 reader rejects member names outside the BMP (emoji); its UTF-16 reader does not
            try {
                read(JSONReader.of(new String(payload, StandardCharsets.UTF_8), syntax.context), envelope);
            } catch (JSONException again) {
                String m = String.valueOf(again.getMessage());
                int cut = m.indexOf(", fastjson-version");
                throw error("malformed JSON (" + (cut > 0 ? m.substring(0, cut) : m) + ")");
            }
        }
    }

    private void read(JSONReader r, Envelope envelope) throws DecodeException {
        envelope.begin();
        syntax.startRecord();
        try (r) {
            if (!r.nextIfObjectStart()) {
                throw error("not a JSON object");
            }
            members(r, 1, envelope);
            if (!syntax.atEnd(r)) {
                throw error("unexpected content after the JSON object");
            }
        } catch (ValueException e) {
            throw e.toDecodeException();
        }
    }

    /** Reads the members of an object whose '{' was consumed, at nesting {@code level}. */
    void members(JSONReader r, int level, Envelope envelope) throws ValueException {
        boolean first = true;
        while (!syntax.objectEnd(r, first)) {
            first = false;
            envelope.member(r.readFieldNameHashCode(), r, level);
        }
    }

    /** Enters an object member's value ('{' consumed); false for JSON null. */
    boolean enterObject(JSONReader r, int level, String member) throws ValueException {
        if (r.nextIfNull()) {
            return false;
        }
        syntax.value(r);
        if (!r.isObject()) {
            throw new ValueException(member, "expected a JSON object");
        }
        syntax.enter(level + 1);
        r.nextIfObjectStart();
        return true;
    }

    /** A member holding a row as an object, or null for JSON null. */
    Object[] row(JSONReader r, int level, String member) throws ValueException {
        return enterObject(r, level, member) ? readRow(r, level + 1, member, false) : null;
    }

    /** A member holding the changed fields' old values (canal-json, maxwell-json): see {@link #completeBefore}. */
    Object[] oldRow(JSONReader r, int level, String member) throws ValueException {
        return enterObject(r, level, member) ? readRow(r, level + 1, member, true) : null;
    }

    /** A member holding an array of rows as objects (canal-json); JSON null adds none. */
    void rows(JSONReader r, int level, String member, boolean old, List<Object[]> into) throws ValueException {
        if (r.nextIfNull()) {
            return;
        }
        syntax.value(r);
        if (!r.isArray()) {
            throw new ValueException(member, "expected a JSON array of rows");
        }
        syntax.enter(level + 1);
        r.nextIfArrayStart();
        int i = 0;
        while (!syntax.arrayEnd(r, i == 0)) {
            String element = member + "[" + i + "]";
            if (r.nextIfNull()) {
                into.add(null);
            } else {
                syntax.value(r);
                if (!r.isObject()) {
                    throw new ValueException(element, "expected a JSON object");
                }
                syntax.enter(level + 2);
                r.nextIfObjectStart();
                into.add(readRow(r, level + 2, element, old));
            }
            i++;
        }
    }

    private Object[] readRow(JSONReader r, int level, String member, boolean old) throws ValueException {
        Object[] row = new Object[arity];
        if (old) {
            for (int p : positions) {
                row[p] = UNCHANGED;
            }
        }
        try {
            fields.readObject(r, row, positions, level);
        } catch (ValueException e) {
            throw e.under(member);
        }
        return row;
    }

    /** An {@code old} row made the full row before the update: fields it does not hold did not change. */
    Object[] completeBefore(Object[] old, Object[] after) {
        for (int p : positions) {
            if (old[p] == UNCHANGED) {
                old[p] = after[p];
            }
        }
        return old;
    }

    /** A member holding a string, or null for JSON null. */
    String string(JSONReader r, String member) throws ValueException {
        if (r.nextIfNull()) {
            return null;
        }
        syntax.value(r);
        if (!r.isString()) {
            throw new ValueException(member, "expected a string");
        }
        return r.readString();
    }

    /** A member holding an integer, or null for JSON null. */
    Long number(JSONReader r, String member) throws ValueException {
        if (r.nextIfNull()) {
            return null;
        }
        syntax.value(r);
        if (!r.isNumber()) {
            throw new ValueException(member, "expected a number");
        }
        return r.readInt64Value();
    }

    void skip(JSONReader r, int level) throws ValueException {
        syntax.skip(r, level);
    }

    /** The payload being read cannot be taken as this format: the error quotes its start. */
    DecodeException error(String reason) {
        return new DecodeException(null, format + ": " + reason + ": " + JsonRowDecoder.preview(payload));
    }
}
