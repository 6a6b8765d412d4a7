package dev.rsql.runtime.state;

import java.util.Arrays;

/** A growable big-endian byte buffer for serializers. Not thread-safe. */
public final class ByteWriter {

    private byte[] buf;
    private int pos;

    public ByteWriter(int capacity) {
        buf = new byte[Math.max(capacity, 16)];
    }

    public void reset() {
        pos = 0;
    }

    public int capacity() {
        return buf.length;
    }

    public int position() {
        return pos;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }

    private void ensure(int extra) {
        if (pos + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + extra));
        }
    }

    /** Reserves {@code n} zero bytes (e.g. a null bitmap filled in later) and returns their offset. */
    public int reserve(int n) {
        ensure(n);
        int at = pos;
        Arrays.fill(buf, at, at + n, (byte) 0);
        pos += n;
        return at;
    }

    public void setBit(int bitmapOffset, int bit) {
        buf[bitmapOffset + (bit >>> 3)] |= (byte) (1 << (bit & 7));
    }

    public void writeByte(int v) {
        ensure(1);
        buf[pos++] = (byte) v;
    }

    public void writeShort(int v) {
        ensure(2);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    public void writeInt(int v) {
        ensure(4);
        buf[pos++] = (byte) (v >>> 24);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    public void writeLong(long v) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buf[pos++] = (byte) (v >>> shift);
        }
    }

    /** Unsigned LEB128. */
    public void writeVarInt(int v) {
        ensure(5);
        while ((v & ~0x7f) != 0) {
            buf[pos++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
    }

    public void writeBytes(byte[] b) {
        writeBytes(b, 0, b.length);
    }

    public void writeBytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, pos, len);
        pos += len;
    }

    /** Length (varint) followed by the bytes. */
    public void writeLengthPrefixed(byte[] b) {
        writeVarInt(b.length);
        writeBytes(b);
    }
}
