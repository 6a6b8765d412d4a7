package dev.rsql.runtime.format.raw;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.DataType.Kind;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static dev.rsql.runtime.format.FormatTesting.decodeOne;
import static dev.rsql.runtime.format.FormatTesting.options;
import static dev.rsql.runtime.format.FormatTesting.rowType;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RawFormatTest {

    private static final RawFormatFactory RAW = new RawFormatFactory();

    @Test
    void stringPayloads() throws Exception {
        RowType rt = rowType("line", DataType.string());
        assertEquals("{\"not\": parsed} é", decodeOne(RAW, rt, Options.empty(), "{\"not\": parsed} é")[0]);
        byte[] latin1 = "café".getBytes(StandardCharsets.ISO_8859_1);
        List<Object[]> rows = new ArrayList<>();
        RAW.createDecoder(FormatContext.of("t", rt, options("charset", "ISO-8859-1"))).decode(latin1, rows::add);
        assertEquals("café", rows.get(0)[0]);
        RowEncoder enc = RAW.createEncoder(FormatContext.of("t", rt, options("encoding", "ISO-8859-1")));
        assertArrayEquals(latin1, enc.encode(Row.insert("café")));
        assertEquals(0, enc.encode(Row.insert((Object) null)).length);
    }

    @Test
    void bytesPayloadsAndTargetPositions() throws Exception {
        RowType rt = rowType("body", DataType.of(Kind.VARBINARY));
        List<Object[]> rows = new ArrayList<>();
        RAW.createDecoder(new FormatContext("t", rt, new int[]{2}, 3, Options.empty())).decode(new byte[]{1, 2}, rows::add);
        assertEquals(3, rows.get(0).length);
        assertArrayEquals(new byte[]{1, 2}, (byte[]) rows.get(0)[2]);
        byte[] data = {0, -1, 5};
        assertArrayEquals(data, RAW.createEncoder(FormatContext.of("t", rt, Options.empty())).encode(Row.insert((Object) data)));
    }

    @Test
    void exactlyOneStringOrBytesColumn() {
        ConfigException e = assertThrows(ConfigException.class, () -> RAW.createDecoder(FormatContext.of("t",
                rowType("a", DataType.string(), "b", DataType.string()), Options.empty())));
        assertTrue(e.getMessage().contains("exactly one payload column"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> RAW.createEncoder(FormatContext.of("t",
                rowType("a", DataType.of(Kind.INT)), Options.empty())));
        assertTrue(e.getMessage().contains("STRING"), e.getMessage());
        assertThrows(ConfigException.class, () -> RAW.createDecoder(FormatContext.of("t",
                rowType("a", DataType.string()), options("charset", "nope-42"))));
    }
}
