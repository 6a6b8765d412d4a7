package dev.rsql.runtime.connector.file;

import dev.rsql.runtime.connector.DecodedRows;
import dev.rsql.runtime.connector.ReaderOutput;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.GuardedRowDecoder;
import dev.rsql.runtime.format.RowDecoder;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads one file line by line (UTF-8 payloads; {@code \n} or {@code \r\n}; blank lines skipped) through a large
 * buffer and decodes each line with the table's format. Positions are 0-based line numbers; messages show them
 * 1-based ({@code file /data/in.jsonl, line 12} is the twelfth line of the file). A line longer than
 * {@code scan.max-record-bytes} is a bad record; no more than the limit of it is ever held in memory.
 */
final class FileShardReader implements ShardReader {

    private static final int BUFFER = 256 * 1024;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long LOW_BITS = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    private final String shardId;
    private final Path file;
    private final String absolute;
    private final RowDecoder decoder;
    private final int maxRecordBytes;
    private final int[] pathColumns;
    private final int[] lineColumns;
    private final boolean[] lineAsInt;
    private final DecodedRows decoded = new DecodedRows();

    private InputStream in;
    private byte[] buf;
    private int pos;
    private int limit;
    private boolean eof;
    private byte[] carry = new byte[256];
    /** The line {@link #nextLine()} found last: {@code line[lineStart, lineEnd)}, in {@link #buf} or {@link #carry}. */
    private byte[] line;
    private int lineStart;
    private int lineEnd;
    private long nextLine;
    /** Bytes of the line {@link #nextLine()} returned last, terminator included, even beyond what it kept. */
    private long lineLength;
    private boolean ended;

    private final long startLine;

    /** @param startLine the line to continue at (a restored checkpoint); earlier lines are skipped */
    FileShardReader(String shardId, Path file, RowDecoder decoder, int maxRecordBytes, int[] pathColumns,
                    int[] lineColumns, boolean[] lineAsInt, long startLine) {
        this.maxRecordBytes = maxRecordBytes;
        this.startLine = startLine;
        this.shardId = shardId;
        this.file = file;
        this.absolute = file.toAbsolutePath().toString();
        this.decoder = decoder;
        this.pathColumns = pathColumns;
        this.lineColumns = lineColumns;
        this.lineAsInt = lineAsInt;
    }

    @Override
    public String shardId() {
        return shardId;
    }

    @Override
    public String description() {
        return "file " + absolute;
    }

    @Override
    public int read(ReaderOutput output, int maxRecords) throws Exception {
        if (ended) {
            return 0;
        }
        if (in == null) {
            open();
            while (nextLine < startLine && nextLine()) {
                nextLine++;
            }
        }
        int n = 0;
        while (n < maxRecords) {
            if (!nextLine()) {
                ended = true;
                closeStream();
                break;
            }
            long position = nextLine++;
            n++;
            int length = lineEnd - lineStart;
            if (length > maxRecordBytes || lineLength > maxRecordBytes + 1L) {
                output.decodeError(position, line(), GuardedRowDecoder.tooLarge(lineLength, maxRecordBytes));
                continue;
            }
            if (isBlank(line, lineStart, lineEnd)) {
                continue;
            }
            decoded.clear();
            try {
                decoder.decodeChangelog(line, lineStart, length, decoded);
            } catch (DecodeException e) {
                output.decodeError(position, line(), e);
                continue;
            }
            for (int i = 0; i < decoded.size(); i++) {
                Object[] row = decoded.fields(i);
                for (int c : pathColumns) {
                    row[c] = absolute;
                }
                for (int c = 0; c < lineColumns.length; c++) {
                    row[lineColumns[c]] = lineAsInt[c] ? (Object) (int) position : (Object) position;
                }
            }
            decoded.emitTo(position, output);
        }
        return n;
    }

    private void open() throws IOException {
        try {
            in = Files.newInputStream(file);
        } catch (IOException e) {
            throw new IOException("cannot open file " + absolute + ": " + e.getMessage(), e);
        }
        buf = new byte[BUFFER];
        fill();
        // skip a UTF-8 byte order mark
        if (limit >= 3 && buf[0] == (byte) 0xEF && buf[1] == (byte) 0xBB && buf[2] == (byte) 0xBF) {
            pos = 3;
        }
    }

    private void fill() throws IOException {
        pos = 0;
        limit = 0;
        while (limit == 0) {
            int r;
            try {
                r = in.read(buf, 0, buf.length);
            } catch (IOException e) {
                throw new IOException("cannot read file " + absolute + " after line " + nextLine + ": " + e.getMessage(), e);
            }
            if (r < 0) {
                eof = true;
                return;
            }
            limit = r;
        }
    }

    /**
     * Finds the next line, without its terminator, at {@link #line} [{@link #lineStart}, {@link #lineEnd}) (in the
     * read buffer where it lies whole, else copied to {@link #carry}), or returns false at the end of the file. Of a
     * line over the size limit only the first {@code maxRecordBytes + 1} bytes are kept; {@link #lineLength} tells
     * how long it was.
     */
    private boolean nextLine() throws IOException {
        int carryLen = 0;
        lineLength = 0;
        while (true) {
            if (pos >= limit) {
                if (eof) {
                    if (lineLength == 0) {
                        return false;
                    }
                    setLine(carry, 0, carryLen);
                    return true;
                }
                fill();
                continue;
            }
            int i = indexOfNewline(buf, pos, limit);
            int end = i >= 0 ? i : limit;
            lineLength += end - pos;
            if (i >= 0) {
                if (carryLen == 0 && lineLength <= maxRecordBytes + 1L) {
                    setLine(buf, pos, i);
                } else {
                    carryLen = appendCarry(carryLen, pos, i);
                    setLine(carry, 0, carryLen);
                }
                pos = i + 1;
                return true;
            }
            carryLen = appendCarry(carryLen, pos, limit);
            pos = limit;
        }
    }

    /** Appends buffered bytes to the carried part of a line, up to one byte over the size limit. */
    private int appendCarry(int carryLen, int from, int to) {
        int add = Math.max(0, Math.min(to - from, maxRecordBytes + 1 - carryLen));
        if (carryLen + add > carry.length) {
            carry = Arrays.copyOf(carry, Math.max(carry.length * 2, carryLen + add));
        }
        System.arraycopy(buf, from, carry, carryLen, add);
        return carryLen + add;
    }

    /** The first '\n' in [from, to), or -1; eight bytes at a time (a zero byte of {@code word ^ NEWLINES}). */
    private static int indexOfNewline(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) LONGS.get(b, i) ^ NEWLINES;
            long zero = (x - LOW_BITS) & ~x & HIGH_BITS;
            if (zero != 0) {
                // the lowest flagged byte is exact (borrows only run upwards from a zero byte)
                return i + (Long.numberOfTrailingZeros(zero) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The line is [from, to) of {@code b} without a trailing \r. */
    private void setLine(byte[] b, int from, int to) {
        if (to > from && b[to - 1] == '\r') {
            to--;
        }
        line = b;
        lineStart = from;
        lineEnd = to;
    }

    /** A copy of the line (for a bad record: the buffer is read on). */
    private byte[] line() {
        return Arrays.copyOfRange(line, lineStart, lineEnd);
    }

    private static boolean isBlank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c != ' ' && c != '\t' && c != '\r') {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean isEndOfInput() {
        return ended;
    }

    @Override
    public void setAvailabilityListener(Runnable listener) {
        // never waits: read() returns 0 only at the end of the file
    }

    @Override
    public String describePosition(long position) {
        return "file " + absolute + ", line " + (position + 1);
    }

    @Override
    public long position() {
        return nextLine;
    }

    @Override
    public void commit(long position) {
        // files are re-read from the start; nothing to remember
    }

    @Override
    public void close() {
        closeStream();
    }

    private void closeStream() {
        if (in != null) {
            try {
                in.close();
            } catch (IOException ignored) {
                // read-only
            }
            in = null;
            buf = null;
        }
    }
}
