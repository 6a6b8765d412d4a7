package dev.rsql.runtime.format.csv;

import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.FormatFactory;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.RowEncoder;

/**
 * Format {@code csv}: positional delimited fields. Options (with or without the {@code csv.} prefix):
 * {@code field-delimiter} (also Blink {@code fieldDelimiter}, {@code delimiter}; default {@code ,}),
 * {@code quote-character} ({@code "}), {@code disable-quote-character}, {@code escape-character},
 * {@code null-literal}, {@code allow-comments}, {@code charset}.
 */
public final class CsvFormatFactory implements FormatFactory {

    @Override
    public String identifier() {
        return "csv";
    }

    @Override
    public RowDecoder createDecoder(FormatContext context) {
        return new CsvRowDecoder(context);
    }

    @Override
    public RowEncoder createEncoder(FormatContext context) {
        return new CsvRowEncoder(context);
    }
}
