package dev.rsql.runtime.state;

/** Reads what {@link ByteWriter} wrote. */
public final class ByteReader {

    private final byte[] buf;
    private int pos;

    public ByteReader(byte[] buf) {
        this.buf = buf;
    }

    /** Reads from {@code offset} on (one record among others packed in a larger array). */
    public ByteReader(byte[] buf, int offset) {
        this.buf = buf;
        this.pos = offset;
    }

    public boolean isBitSet(int bitmapOffset, int bit) {
        return (buf[bitmapOffset + (bit >>> 3)] & (1 << (bit & 7))) != 0;
    }

    /** Skips {@code n} bytes and returns the offset where they start. */
    public int skip(int n) {
        check(n);
        int at = pos;
        pos += n;
        return at;
    }

    public int position() {
        return pos;
    }

    /** Bytes left to read: an upper bound of the elements a count read from the bytes can announce. */
    public int remaining() {
        return buf.length - pos;
    }

    public boolean atEnd() {
        return pos == buf.length;
    }

    public byte readByte() {
        check(1);
        return buf[pos++];
    }

    public short readShort() {
        check(2);
        int v = (buf[pos] & 0xff) << 8 | (buf[pos + 1] & 0xff);
        pos += 2;
        return (short) v;
    }

    public int readInt() {
        check(4);
        int v = (buf[pos] & 0xff) << 24 | (buf[pos + 1] & 0xff) << 16 | (buf[pos + 2] & 0xff) << 8
                | (buf[pos + 3] & 0xff);
        pos += 4;
        return v;
    }

    public long readLong() {
        check(8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (buf[pos + i] & 0xff);
        }
        pos += 8;
        return v;
    }

    public int readVarInt() {
        int v = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            byte b = readByte();
            v |= (b & 0x7f) << shift;
            if (b >= 0) {
                return v;
            }
        }
        throw new StateException("malformed varint at " + (pos - 5));
    }

    public long readVarLong() {
        long v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            byte b = readByte();
            v |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return v;
            }
        }
        throw new StateException("malformed varint at " + (pos - 10));
    }

    /**
     * A count of elements that follow, each taking at least one byte: more than the bytes left is corruption, refused
     * before anything is allocated for it.
     */
    public int readCount() {
        int at = pos;
        int n = readVarInt();
        if (n < 0 || n > remaining()) {
            throw new StateException("count " + n + " at " + at + " exceeds the " + remaining() + " bytes left");
        }
        return n;
    }

    public byte[] readBytes(int n) {
        check(n);
        byte[] b = new byte[n];
        System.arraycopy(buf, pos, b, 0, n);
        pos += n;
        return b;
    }

    /** Reads {@code n} bytes into {@code dst} at {@code off}. */
    public void readBytes(byte[] dst, int off, int n) {
        check(n);
        System.arraycopy(buf, pos, dst, off, n);
        pos += n;
    }

    public byte[] readLengthPrefixed() {
        return readBytes(readVarInt());
    }

    public String readUtf8() {
        int n = readVarInt();
        check(n);
        String s = new String(buf, pos, n, java.nio.charset.StandardCharsets.UTF_8);
        pos += n;
        return s;
    }

    private void check(int n) {
        if (n < 0 || n > buf.length - pos) { // not pos + n: a huge n would overflow past the check
            throw new StateException("truncated bytes: need " + n + " at " + pos + " of " + buf.length);
        }
    }
}
