package dev.rsql.runtime.state;

import java.util.Arrays;

/** A growable big-endian byte buffer for serializers. Not thread-safe. */
final class ByteWriter {

    private byte[] buf;
    private int pos;

    ByteWriter(int capacity) {
        buf = new byte[Math.max(capacity, 16)];
    }

    void reset() {
        pos = 0;
    }

    int capacity() {
        return buf.length;
    }

    int position() {
        return pos;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }

    private void ensure(int extra) {
        if (pos + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + extra));
        }
    }

    /** Reserves {@code n} zero bytes (e.g. a null bitmap filled in later) and returns their offset. */
    int reserve(int n) {
        ensure(n);
        int at = pos;
        Arrays.fill(buf, at, at + n, (byte) 0);
        pos += n;
        return at;
    }

    void setBit(int bitmapOffset, int bit) {
        buf[bitmapOffset + (bit >>> 3)] |= (byte) (1 << (bit & 7));
    }

    void writeByte(int v) {
        ensure(1);
        buf[pos++] = (byte) v;
    }

    void writeShort(int v) {
        ensure(2);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    void writeInt(int v) {
        ensure(4);
        buf[pos++] = (byte) (v >>> 24);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    void writeLong(long v) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buf[pos++] = (byte) (v >>> shift);
        }
    }

    /** Unsigned LEB128. */
    void writeVarInt(int v) {
        ensure(5);
        while ((v & ~0x7f) != 0) {
            buf[pos++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
    }

    void writeBytes(byte[] b) {
        writeBytes(b, 0, b.length);
    }

    void writeBytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, pos, len);
        pos += len;
    }

    /** Length (varint) followed by the bytes. */
    void writeLengthPrefixed(byte[] b) {
        writeVarInt(b.length);
        writeBytes(b);
    }
}
