package dev.rsql.runtime.connector.file;

import dev.rsql.runtime.connector.ReaderOutput;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.GuardedRowDecoder;
import dev.rsql.runtime.format.RowDecoder;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads one file line by line (UTF-8 payloads; {@code \n} or {@code \r\n}; blank lines skipped) through a large
 * buffer and decodes each line with the table's format. Positions are 0-based line numbers; messages show them
 * 1-based ({@code file /data/in.jsonl, line 12} is the twelfth line of the file). A line longer than
 * {@code scan.max-record-bytes} is a bad record; no more than the limit of it is ever held in memory.
 */
final class FileShardReader implements ShardReader {

    private static final int BUFFER = 256 * 1024;

    private final String shardId;
    private final Path file;
    private final String absolute;
    private final RowDecoder decoder;
    private final int maxRecordBytes;
    private final int[] pathColumns;
    private final int[] lineColumns;
    private final boolean[] lineAsInt;
    private final List<Object[]> decoded = new ArrayList<>(4);
    private final Consumer<Object[]> collector = decoded::add;

    private InputStream in;
    private byte[] buf;
    private int pos;
    private int limit;
    private boolean eof;
    private byte[] carry = new byte[256];
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
            while (nextLine < startLine && nextLine() != null) {
                nextLine++;
            }
        }
        int n = 0;
        while (n < maxRecords) {
            byte[] line = nextLine();
            if (line == null) {
                ended = true;
                closeStream();
                break;
            }
            long position = nextLine++;
            n++;
            if (line.length > maxRecordBytes || lineLength > maxRecordBytes + 1L) {
                output.decodeError(position, line, GuardedRowDecoder.tooLarge(lineLength, maxRecordBytes));
                continue;
            }
            if (isBlank(line)) {
                continue;
            }
            decoded.clear();
            try {
                decoder.decode(line, collector);
            } catch (DecodeException e) {
                output.decodeError(position, line, e);
                continue;
            }
            for (int i = 0; i < decoded.size(); i++) {
                Object[] row = decoded.get(i);
                for (int c : pathColumns) {
                    row[c] = absolute;
                }
                for (int c = 0; c < lineColumns.length; c++) {
                    row[lineColumns[c]] = lineAsInt[c] ? (Object) (int) position : (Object) position;
                }
                output.emit(position, row);
            }
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
     * The next line without its terminator, or null at the end of the file. Of a line over the size limit only the
     * first {@code maxRecordBytes + 1} bytes are kept; {@link #lineLength} tells how long it was.
     */
    private byte[] nextLine() throws IOException {
        int carryLen = 0;
        lineLength = 0;
        while (true) {
            if (pos >= limit) {
                if (eof) {
                    return lineLength == 0 ? null : trimmed(carry, 0, carryLen);
                }
                fill();
                continue;
            }
            int i = indexOfNewline(buf, pos, limit);
            int end = i >= 0 ? i : limit;
            lineLength += end - pos;
            if (i >= 0) {
                byte[] line;
                if (carryLen == 0 && lineLength <= maxRecordBytes + 1L) {
                    line = trimmed(buf, pos, i);
                } else {
                    carryLen = appendCarry(carryLen, pos, i);
                    line = trimmed(carry, 0, carryLen);
                }
                pos = i + 1;
                return line;
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

    private static int indexOfNewline(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Copies [from, to) without a trailing \r. */
    private static byte[] trimmed(byte[] b, int from, int to) {
        if (to > from && b[to - 1] == '\r') {
            to--;
        }
        return Arrays.copyOfRange(b, from, to);
    }

    private static boolean isBlank(byte[] line) {
        for (byte c : line) {
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
