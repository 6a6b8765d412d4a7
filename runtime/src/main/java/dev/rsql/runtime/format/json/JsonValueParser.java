package dev.rsql.runtime.format.json;

import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONReader;
import dev.rsql.runtime.format.EpochWallClock;
import dev.rsql.runtime.types.DataType;

/** Reads JSON text as a value of a declared type (for other text formats with nested columns). Not thread-safe. */
public final class JsonValueParser {

    private final JsonSyntax syntax = JsonSyntax.defaults();
    private final ValueReader reader;

    private JsonValueParser(DataType type, boolean failOnMissing, EpochWallClock epochs) {
        this.reader = new ValueReader(type, failOnMissing, syntax, epochs);
    }

    public static JsonValueParser of(DataType type) {
        return of(type, EpochWallClock.UTC);
    }

    /** @param epochs how epoch numbers in TIMESTAMP fields are read (the job's local time zone) */
    public static JsonValueParser of(DataType type, EpochWallClock epochs) {
        return new JsonValueParser(type, false, epochs);
    }

    /** The internal value of the JSON text ({@code null} for JSON null). */
    public Object parse(String json) throws ValueException {
        syntax.startRecord();
        try (JSONReader r = JSONReader.of(json, syntax.context)) {
            Object v = reader.readNullable(r, 0);
            if (!syntax.atEnd(r)) {
                throw new ValueException(null, "unexpected content after the JSON value in " + ValueText.describe(json));
            }
            return v;
        } catch (JSONException e) {
            throw new ValueException(null, "cannot read " + ValueText.describe(json) + " as " + reader.type.nullable()
                    + ": malformed JSON");
        }
    }

    Object parseOrThrow(String json) {
        try {
            return parse(json);
        } catch (ValueException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }
}
