package dev.rsql.runtime.state;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MurmurHash3 x86 32-bit (Austin Appleby's reference algorithm, byte-for-byte equal to Guava's
 * {@code murmur3_32_fixed}). Used wherever a hash must be identical in every JVM and every version of the engine:
 * key groups and state ids are stored in checkpoints, so this function must never change.
 */
public final class Murmur3 {

    /** Four bytes as one little-endian int: one load instead of four and the shifts that join them. */
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private Murmur3() {
    }

    public static int hash32(byte[] data, int seed) {
        return hash32(data, 0, data.length, seed);
    }

    @SuppressWarnings("fallthrough")
    public static int hash32(byte[] data, int offset, int length, int seed) {
        int h1 = seed;
        int blocks = length >>> 2;
        int p = offset;
        for (int i = 0; i < blocks; i++, p += 4) {
            h1 ^= mixK1((int) INT_LE.get(data, p));
            h1 = Integer.rotateLeft(h1, 13);
            h1 = h1 * 5 + 0xe6546b64;
        }
        int k1 = 0;
        switch (length & 3) {
            case 3:
                k1 ^= (data[p + 2] & 0xff) << 16;
                // fall through
            case 2:
                k1 ^= (data[p + 1] & 0xff) << 8;
                // fall through
            case 1:
                k1 ^= data[p] & 0xff;
                h1 ^= mixK1(k1);
                break;
            default:
                break;
        }
        h1 ^= length;
        h1 ^= h1 >>> 16;
        h1 *= 0x85ebca6b;
        h1 ^= h1 >>> 13;
        h1 *= 0xc2b2ae35;
        h1 ^= h1 >>> 16;
        return h1;
    }

    private static int mixK1(int k1) {
        k1 *= C1;
        k1 = Integer.rotateLeft(k1, 15);
        return k1 * C2;
    }
}
