package dev.rsql.runtime.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Checks that bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF)
 * without decoding or copying them. ASCII runs are skipped eight bytes at a time, so the usual record costs a
 * fraction of its parsing.
 */
public final class Utf8 {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

    private Utf8() {
    }

    /** The index of the first byte that is not part of a well-formed sequence, or -1 when all are. */
    public static int firstInvalid(byte[] b, int from, int to) {
        int i = from;
        while (i < to) {
            if (i + 8 <= to && ((long) LONGS.get(b, i) & HIGH_BITS) == 0) {
                i += 8;
                continue;
            }
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            int n;
            int min = 0x80;
            int max = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                n = 1;
            } else if (c >= 0xE0 && c <= 0xEF) {
                n = 2;
                if (c == 0xE0) {
                    min = 0xA0;         // overlong
                } else if (c == 0xED) {
                    max = 0x9F;         // UTF-16 surrogates
                }
            } else if (c >= 0xF0 && c <= 0xF4) {
                n = 3;
                if (c == 0xF0) {
                    min = 0x90;         // overlong
                } else if (c == 0xF4) {
                    max = 0x8F;         // above U+10FFFF
                }
            } else {
                return i;               // a continuation byte, C0/C1 (overlong) or F5..FF
            }
            if (i + n >= to) {
                return i;               // truncated
            }
            int second = b[i + 1] & 0xFF;
            if (second < min || second > max) {
                return i;
            }
            for (int k = 2; k <= n; k++) {
                if ((b[i + k] & 0xC0) != 0x80) {
                    return i;
                }
            }
            i += n + 1;
        }
        return -1;
    }
}
