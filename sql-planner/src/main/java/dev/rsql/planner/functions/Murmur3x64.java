package dev.rsql.planner.functions;

/**
 * The first 64 bits of MurmurHash3 x64 128-bit, seed 0, as MURMUR_HASH_64 uses (MURMUR_HASH is the x86 32-bit variant,
 * the runtime's {@link dev.rsql.runtime.state.Murmur3}).
 */
final class Murmur3x64 {

    private Murmur3x64() {
    }

    static long hash64(byte[] data) {
        final long c1 = 0x87c37b91114253d5L;
        final long c2 = 0x4cf5ad432745937fL;
        long h1 = 0;
        long h2 = 0;
        int len = data.length;
        int blocks = len >>> 4;
        for (int i = 0; i < blocks; i++) {
            long k1 = getLong(data, i << 4);
            long k2 = getLong(data, (i << 4) + 8);
            k1 *= c1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= c2;
            h1 ^= k1;
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            k2 *= c2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= c1;
            h2 ^= k2;
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        long k1 = 0;
        long k2 = 0;
        int tail = blocks << 4;
        switch (len & 15) {
            case 15: k2 ^= (long) (data[tail + 14] & 0xff) << 48; // fall through
            case 14: k2 ^= (long) (data[tail + 13] & 0xff) << 40; // fall through
            case 13: k2 ^= (long) (data[tail + 12] & 0xff) << 32; // fall through
            case 12: k2 ^= (long) (data[tail + 11] & 0xff) << 24; // fall through
            case 11: k2 ^= (long) (data[tail + 10] & 0xff) << 16; // fall through
            case 10: k2 ^= (long) (data[tail + 9] & 0xff) << 8; // fall through
            case 9:
                k2 ^= data[tail + 8] & 0xff;
                k2 *= c2;
                k2 = Long.rotateLeft(k2, 33);
                k2 *= c1;
                h2 ^= k2;
                // fall through
            case 8: k1 ^= (long) (data[tail + 7] & 0xff) << 56; // fall through
            case 7: k1 ^= (long) (data[tail + 6] & 0xff) << 48; // fall through
            case 6: k1 ^= (long) (data[tail + 5] & 0xff) << 40; // fall through
            case 5: k1 ^= (long) (data[tail + 4] & 0xff) << 32; // fall through
            case 4: k1 ^= (long) (data[tail + 3] & 0xff) << 24; // fall through
            case 3: k1 ^= (long) (data[tail + 2] & 0xff) << 16; // fall through
            case 2: k1 ^= (long) (data[tail + 1] & 0xff) << 8; // fall through
            case 1:
                k1 ^= data[tail] & 0xff;
                k1 *= c1;
                k1 = Long.rotateLeft(k1, 31);
                k1 *= c2;
                h1 ^= k1;
                break;
            default:
                break;
        }
        h1 ^= len;
        h2 ^= len;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 += h2;
        return h1;
    }

    private static long getLong(byte[] b, int p) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[p + i] & 0xff);
        }
        return v;
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
