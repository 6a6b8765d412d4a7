package dev.rsql.runtime.format.raw;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.FormatFactory;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.nio.charset.Charset;

/**
 * Format {@code raw}: the whole payload is the value of the table's single payload column, a string (decoded with
 * option {@code charset}, alias {@code encoding}, default UTF-8) or bytes. Encoding writes the column back; NULL
 * gives an empty payload.
 */
public final class RawFormatFactory implements FormatFactory {

    @Override
    public String identifier() {
        return "raw";
    }

    @Override
    public RowDecoder createDecoder(FormatContext context) {
        boolean bytes = isBytes(context);
        Charset charset = charset(context);
        int position = context.targetPositions()[0];
        int arity = context.targetArity();
        return (payload, out) -> {
            Object[] row = new Object[arity];
            row[position] = bytes ? payload : new String(payload, charset);
            out.accept(row);
        };
    }

    @Override
    public RowEncoder createEncoder(FormatContext context) {
        boolean bytes = isBytes(context);
        Charset charset = charset(context);
        return new RowEncoder() {
            @Override
            public byte[] encode(Row row) {
                Object v = row.fields()[0];
                if (v == null) {
                    return new byte[0];
                }
                return bytes ? (byte[]) v : v.toString().getBytes(charset);
            }
        };
    }

    private static boolean isBytes(FormatContext context) {
        RowType rt = context.rowType();
        if (rt.size() != 1) {
            throw new ConfigException("format 'raw' of table " + context.tableName()
                    + " needs exactly one payload column, the table declares " + rt.size() + ": " + rt);
        }
        DataType.Kind k = rt.type(0).kind();
        if (k.isCharacter()) {
            return false;
        }
        if (k.isBinary()) {
            return true;
        }
        throw new ConfigException("format 'raw' of table " + context.tableName() + ": column " + rt.name(0)
                + " must be STRING/VARCHAR or BYTES/VARBINARY, not " + rt.type(0));
    }

    private static Charset charset(FormatContext context) {
        String cs = context.options().getOrDefault("UTF-8", "charset", "encoding");
        try {
            return Charset.forName(cs.trim());
        } catch (RuntimeException e) {
            throw new ConfigException("format 'raw' of table " + context.tableName() + ": unknown charset '" + cs + "'");
        }
    }
}
