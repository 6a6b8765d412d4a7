package dev.rsql.runtime.format.json;

import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.FormatFactory;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.RowEncoder;

/**
 * Format {@code json}: one JSON object per payload, members bound to the declared columns by name.
 *
 * <p>Options (with or without the {@code json.} prefix): {@code fail-on-missing-field} (default false),
 * {@code timestamp-format.standard} ({@code SQL} or {@code ISO-8601}, for writing), {@code msgIsJsonArray} /
 * {@code array-of-rows} (a payload may hold a JSON array of objects, one row each), {@code lenient} (default false:
 * strict JSON), {@code max-nesting-depth} (default 1000).
 */
public final class JsonFormatFactory implements FormatFactory {

    @Override
    public String identifier() {
        return "json";
    }

    @Override
    public RowDecoder createDecoder(FormatContext context) {
        return new JsonRowDecoder(context);
    }

    @Override
    public RowEncoder createEncoder(FormatContext context) {
        return new JsonRowEncoder(context);
    }

    /** Rows that are not inserts carry their kind in an {@code op} member. */
    @Override
    public boolean encodesRowKind() {
        return true;
    }
}
