package dev.rsql.runtime.format.json;

import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONReader;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.Utf8;
import dev.rsql.runtime.types.RowType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Decodes a JSON object into a row of the declared fields, streaming with fastjson2's {@link JSONReader} straight
 * into the row array. Members are matched by name (exact, then case-insensitive); others are skipped; a missing
 * member or JSON null gives NULL (option {@code fail-on-missing-field} makes a missing member an error). Members of
 * fields the job does not read ({@link FormatContext#isRead}) are skipped like undeclared ones: their values are
 * checked only for JSON syntax, and the fields stay NULL.
 *
 * <p>With option {@code msgIsJsonArray} (rsqldb) or {@code array-of-rows}, a payload holding a JSON array of
 * objects gives one row per element.
 *
 * <p>Payloads are read strictly (see {@link JsonSyntax}): valid UTF-8, double quotes, one comma between members and
 * none before a closing bracket, at most {@code max-nesting-depth} levels; option {@code lenient} relaxes the syntax.
 *
 * <p>Most records are plain JSON of the usual types, and {@link PlainJsonReader} reads those straight from their
 * bytes, faster; fastjson2 reads the others, and gives the errors.
 */
final class JsonRowDecoder implements RowDecoder {

    private final FieldTable fields;
    private final int[] positions;
    private final int arity;
    private final boolean arrayOfRows;
    private final JsonSyntax syntax;
    /** Reads plain records without fastjson2; null when it could read none of this table's. */
    private final PlainJsonReader plain;
    private final List<Object[]> arrayRows = new ArrayList<>();
    /** Marks a reading in place that went past the record's end. */
    private static final Object[] PAST_END = new Object[0];

    JsonRowDecoder(FormatContext ctx) {
        this(ctx, true);
    }

    /** @param plainReading whether plain records are read without fastjson2 (false in tests, to compare) */
    JsonRowDecoder(FormatContext ctx, boolean plainReading) {
        RowType rowType = ctx.rowType();
        boolean failOnMissing = ctx.options().getBoolean(false, "fail-on-missing-field", "failOnMissingField");
        this.syntax = JsonSyntax.of(ctx.options());
        // fields no query reads are skipped undecoded, unless each must be present
        this.fields = new FieldTable(rowType.names(), rowType.types(), failOnMissing, syntax, ctx.epochWallClock(),
                failOnMissing ? i -> true : ctx::isRead);
        this.positions = ctx.targetPositions();
        this.arity = ctx.targetArity();
        this.arrayOfRows = ctx.options().getBoolean(false, "array-of-rows", "msgIsJsonArray");
        PlainJsonReader reader = new PlainJsonReader(fields, rowType.types(), syntax, ctx.epochWallClock());
        this.plain = plainReading && !failOnMissing && reader.usable() ? reader : null;
    }

    @Override
    public void decode(byte[] payload, Consumer<Object[]> out) throws DecodeException {
        if (!readPlain(payload, 0, payload.length, out)) {
            decodeWithFastjson(payload, out);
        }
    }

    private void decodeWithFastjson(byte[] payload, Consumer<Object[]> out) throws DecodeException {
        if (syntax.strict) {
            // fastjson2 reads invalid bytes as U+FFFD (and skips them unread): check the whole payload first
            int bad = Utf8.firstInvalid(payload, 0, payload.length);
            if (bad >= 0) {
                throw new DecodeException(null, "malformed JSON: invalid UTF-8 at byte " + bad + ": " + preview(payload));
            }
        }
        Object[] single;
        try {
            single = decodeWith(JSONReader.of(payload, 0, payload.length, syntax.context), payload, Integer.MAX_VALUE);
        } catch (JSONException e) {
            // fastjson2's UTF-8 reader rejects member names with characters outside the BMP (emoji); its UTF-16
            // reader does not. Malformed payloads fail again here, so the retry costs only on errors.
            try {
                single = decodeWith(JSONReader.of(new String(payload, StandardCharsets.UTF_8), syntax.context), payload,
                        Integer.MAX_VALUE);
            } catch (JSONException again) {
                throw new DecodeException(null, "malformed JSON (" + shortMessage(again) + "): " + preview(payload), again);
            }
        }
        emit(single, out);
    }

    /**
     * Reads a record in place when it is well-formed and fastjson2 stayed inside it. fastjson2 reads a range of an
     * array, but does not always stop at the range's end (after a backslash, in a number) and counts error
     * positions from the array's start: any failure, and a read that went past the end, is left to the reading of
     * a copy, which gives exactly the rows and errors of the record on its own. Errors cost a second reading.
     */
    @Override
    public void decode(byte[] buffer, int offset, int length, Consumer<Object[]> out) throws DecodeException {
        int end = offset + length;
        if (readPlain(buffer, offset, end, out)) {
            return;
        }
        Object[] single = PAST_END;
        if (!syntax.strict || Utf8.firstInvalid(buffer, offset, end) < 0) {
            try {
                single = decodeWith(JSONReader.of(buffer, offset, length, syntax.context), buffer, end);
            } catch (DecodeException | RuntimeException e) {
                arrayRows.clear();
            }
        }
        if (single == PAST_END) {
            decodeWithFastjson(Arrays.copyOfRange(buffer, offset, end), out);
        } else {
            emit(single, out);
        }
    }

    /** Whether the record was plain JSON, read and emitted without fastjson2. */
    private boolean readPlain(byte[] buffer, int from, int to, Consumer<Object[]> out) {
        if (plain == null) {
            return false;
        }
        Object[] row = plain.read(buffer, from, to, positions, arity);
        if (row == PlainJsonReader.NOT_PLAIN) {
            return false;
        }
        out.accept(row);
        return true;
    }

    private void emit(Object[] single, Consumer<Object[]> out) {
        if (single != null) {
            out.accept(single);
        } else {
            for (Object[] row : arrayRows) {
                out.accept(row);
            }
            arrayRows.clear();
        }
    }

    /**
     * The row of an object payload, or null after filling {@link #arrayRows} from an array payload, or
     * {@link #PAST_END} when the reader consumed bytes at or after {@code end} (an absolute index into the array).
     */
    private Object[] decodeWith(JSONReader r, byte[] payload, int end) throws DecodeException {
        syntax.startRecord();
        try {
            if (r.nextIfObjectStart()) {
                Object[] row = new Object[arity];
                fields.readObject(r, row, positions, 1);
                if (!syntax.atEnd(r)) {
                    throw new DecodeException(null, "unexpected content after the JSON object: " + preview(payload));
                }
                return r.getOffset() > end ? PAST_END : row;
            }
            if (arrayOfRows && r.nextIfArrayStart()) {
                arrayRows.clear();
                boolean first = true;
                while (!syntax.arrayEnd(r, first)) {
                    first = false;
                    if (!r.nextIfObjectStart()) {
                        throw new DecodeException(null, "not a JSON object in the array: " + preview(payload));
                    }
                    Object[] row = new Object[arity];
                    fields.readObject(r, row, positions, 2);
                    arrayRows.add(row);
                }
                if (!syntax.atEnd(r)) {
                    throw new DecodeException(null, "unexpected content after the JSON array: " + preview(payload));
                }
                if (r.getOffset() > end) {
                    arrayRows.clear();
                    return PAST_END;
                }
                return null;
            }
            throw new DecodeException(null, "not a JSON object: " + preview(payload));
        } catch (ValueException e) {
            throw e.toDecodeException();
        } finally {
            r.close();
        }
    }

    /** fastjson2 appends the whole input to its messages; keep the part before it. */
    private static String shortMessage(JSONException e) {
        String m = String.valueOf(e.getMessage());
        int cut = m.indexOf(", fastjson-version");
        if (cut > 0) {
            m = m.substring(0, cut);
        }
        return m.length() > 200 ? m.substring(0, 197) + "..." : m;
    }

    static String preview(byte[] payload) {
        int n = Math.min(payload.length, 200);
        String s = new String(payload, 0, n, StandardCharsets.UTF_8).strip();
        if (s.isEmpty()) {
            return "(empty)";
        }
        return payload.length > n ? s + "..." : s;
    }
}
