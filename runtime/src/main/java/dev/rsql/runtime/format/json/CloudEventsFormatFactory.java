package dev.rsql.runtime.format.json;

import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.FormatFactory;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.RowEncoder;

/**
 * Format {@code cloudevents}: CloudEvents 1.0 in structured mode, one JSON event per message
 * ({@link CloudEventsRowDecoder}, {@link CloudEventsRowEncoder}). Options (prefix {@code cloudevents.} or none):
 * {@code default-source} and {@code default-type} (for writing, when the table has no such column), and the json
 * format's {@code lenient}, {@code max-nesting-depth} and {@code fail-on-missing-field}.
 */
public final class CloudEventsFormatFactory implements FormatFactory {

    @Override
    public String identifier() {
        return "cloudevents";
    }

    @Override
    public RowDecoder createDecoder(FormatContext context) {
        return new CloudEventsRowDecoder(context);
    }

    @Override
    public RowEncoder createEncoder(FormatContext context) {
        return new CloudEventsRowEncoder(context);
    }
}
