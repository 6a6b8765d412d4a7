package dev.rsql.runtime.format.json;

import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.types.DataType;

import java.util.Map;

/**
 * Format {@code canal-json}: Canal's flat JSON messages (see {@link CanalJsonRowDecoder}); a source table of this
 * format is a changelog. Options (prefix {@code canal-json.} or none): {@code database.include} and
 * {@code table.include} (regular expressions),
 * {@code timestamp-format.standard} for writing, and the json format's {@code lenient} and
 * {@code max-nesting-depth}. Writing gives {@code {"data":[row],"type":"INSERT"}} for +I and +U and
 * {@code {"data":[row],"type":"DELETE"}} for -U and -D.
 */
public final class CanalJsonFormatFactory extends ChangelogJsonFormatFactory {

    @Override
    public String identifier() {
        return "canal-json";
    }

    @Override
    public RowDecoder createDecoder(FormatContext context) {
        return new CanalJsonRowDecoder(context);
    }

    @Override
    public RowEncoder createEncoder(FormatContext context) {
        return new ChangelogJsonRowEncoder(context, "{\"data\":[", "],\"type\":\"INSERT\"}", "{\"data\":[",
                "],\"type\":\"DELETE\"}");
    }

    @Override
    public Map<String, DataType> readableMetadata() {
        return CanalJsonRowDecoder.METADATA;
    }
}
