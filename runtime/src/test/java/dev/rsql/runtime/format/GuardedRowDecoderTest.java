package dev.rsql.runtime.format;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GuardedRowDecoderTest {

    private static final RowDecoder ONE_ROW = (payload, out) -> out.accept(new Object[]{payload.length});

    /** A format with no nesting limit of its own. */
    private static int depth(byte[] payload, int i) {
        return i < payload.length && payload[i] == '[' ? 1 + depth(payload, i + 1) : 0;
    }

    @Test
    void aRecordOverTheLimitIsRejectedBeforeTheFormatSeesIt() throws Exception {
        List<Object[]> rows = new ArrayList<>();
        RowDecoder d = new GuardedRowDecoder((payload, out) -> {
            throw new AssertionError("parsed");
        }, 10);
        DecodeException e = assertThrows(DecodeException.class, () -> d.decode(new byte[11], rows::add));
        assertEquals("the record has 11 bytes, more than the limit of 10 (option 'scan.max-record-bytes')",
                e.getMessage());
        new GuardedRowDecoder(ONE_ROW, 10).decode(new byte[10], rows::add);
        assertEquals(1, rows.size());
    }

    @Test
    void aFailingFormatAndAStackOverflowAreBadRecords() throws Exception {
        RowDecoder throwing = new GuardedRowDecoder((payload, out) -> {
            throw new IllegalStateException("boom");
        }, 100);
        DecodeException e = assertThrows(DecodeException.class, () -> throwing.decode(new byte[1], r -> { }));
        assertTrue(e.getMessage().contains("boom"), e.getMessage());
        assertNull(e.field());

        byte[] deep = "[".repeat(1_000_000).getBytes(StandardCharsets.US_ASCII);
        List<Object[]> rows = new ArrayList<>();
        RowDecoder recursive = new GuardedRowDecoder((payload, out) -> out.accept(new Object[]{depth(payload, 0)}),
                Integer.MAX_VALUE - 16);
        e = assertThrows(DecodeException.class, () -> recursive.decode(deep, rows::add));
        assertTrue(e.getMessage().contains("stack overflowed"), e.getMessage());
        // the decoder (and the thread) go on with the next record
        recursive.decode("[[x".getBytes(StandardCharsets.US_ASCII), rows::add);
        assertEquals(2, rows.get(0)[0]);
    }

    @Test
    void theLimitIsATableOptionWithADefault() {
        assertEquals(16 * 1024 * 1024, GuardedRowDecoder.maxRecordBytes(Options.empty()));
        assertEquals(1024, GuardedRowDecoder.maxRecordBytes(new Options(Map.of("scan.max-record-bytes", "1024"))));
        assertThrows(ConfigException.class,
                () -> GuardedRowDecoder.maxRecordBytes(new Options(Map.of("scan.max-record-bytes", "0"))));
        assertThrows(ConfigException.class,
                () -> GuardedRowDecoder.maxRecordBytes(new Options(Map.of("scan.max-record-bytes", "16mb"))));
    }

    @Test
    void utf8Validation() {
        byte[] valid = "plain ascii, then é中€😀 and more ascii".getBytes(StandardCharsets.UTF_8);
        assertEquals(-1, Utf8.firstInvalid(valid, 0, valid.length));
        int[][] invalid = {{0x80}, {0xBF}, {0xC0, 0xAF}, {0xC1, 0xBF}, {0xC3}, {0xC3, 0x41}, {0xE0, 0x80, 0x80},
                {0xED, 0xA0, 0x80}, {0xE2, 0x82}, {0xF0, 0x80, 0x80, 0x80}, {0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80, 0x80, 0x80},
                {0xFF}};
        for (int[] seq : invalid) {
            byte[] b = new byte[20 + seq.length];
            for (int i = 0; i < b.length; i++) {
                b[i] = 'a';
            }
            for (int i = 0; i < seq.length; i++) {
                b[11 + i] = (byte) seq[i];
            }
            assertEquals(11, Utf8.firstInvalid(b, 0, b.length), Arrays.toString(seq));
        }
        byte[] euro = {(byte) 0xE2, (byte) 0x82, (byte) 0xAC};
        assertEquals(0, Utf8.firstInvalid(euro, 0, 2));
        assertEquals(-1, Utf8.firstInvalid(euro, 0, 3));
    }
}
