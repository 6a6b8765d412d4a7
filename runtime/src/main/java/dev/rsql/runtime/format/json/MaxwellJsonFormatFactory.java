package dev.rsql.runtime.format.json;

import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.types.DataType;

import java.util.Map;

/**
 * Format {@code maxwell-json}: Maxwell's change messages (see {@link MaxwellJsonRowDecoder}); a source table of this
 * format is a changelog. Options (prefix {@code maxwell-json.} or none):
 * {@code timestamp-format.standard} for writing, and the json format's {@code lenient} and
 * {@code max-nesting-depth}. Writing gives {@code {"data":row,"type":"insert"}} for +I and +U and
 * {@code {"data":row,"type":"delete"}} for -U and -D.
 */
public final class MaxwellJsonFormatFactory extends ChangelogJsonFormatFactory {

    @Override
    public String identifier() {
        return "maxwell-json";
    }

    @Override
    public RowDecoder createDecoder(FormatContext context) {
        return new MaxwellJsonRowDecoder(context);
    }

    @Override
    public RowEncoder createEncoder(FormatContext context) {
        return new ChangelogJsonRowEncoder(context, "{\"data\":", ",\"type\":\"insert\"}", "{\"data\":",
                ",\"type\":\"delete\"}");
    }

    @Override
    public Map<String, DataType> readableMetadata() {
        return MaxwellJsonRowDecoder.METADATA;
    }
}
