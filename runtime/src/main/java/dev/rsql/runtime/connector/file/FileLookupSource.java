package dev.rsql.runtime.connector.file;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.LookupCacheMode;
import dev.rsql.runtime.connector.LookupReader;
import dev.rsql.runtime.connector.LookupSource;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.table.TableSchema;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A file table as a dimension table (JSON lines, CSV, any line format of the file connector), fully cached by
 * default; with {@code lookup.cache = 'PARTIAL'} (or NONE) lookups read single lines through an index of their
 * positions ({@link FileKeyIndex}). Each load lists the files again (a glob or directory may gain files) and splits
 * them into byte ranges on line boundaries, so that one large file loads on several threads; a range reads the
 * lines that start inside it.
 */
final class FileLookupSource implements LookupSource {

    private static final long MIN_RANGE_BYTES = 1 << 20;

    private record FileRange(Path file, long start, long end) implements ScanRange {
        @Override
        public String description() {
            return file.getFileName() + " bytes [" + start + ", " + end + ")";
        }
    }

    private final ConnectorContext context;
    private final String location;
    private final java.util.Map<String, FileKeyIndex> indexes = new java.util.HashMap<>();

    FileLookupSource(ConnectorContext context) {
        this.context = context;
        this.location = new FileSource(context).identity();
    }

    /** Through an index of line positions ({@link FileKeyIndex}), for a partial cache. */
    @Override
    public boolean supportsPointLookup() {
        return true;
    }

    /** A file is loaded whole unless the table asks for a partial cache. */
    @Override
    public LookupCacheMode defaultCacheMode() {
        return LookupCacheMode.FULL;
    }

    /** The tasks of a job share one line index per key (it is thread-safe); the source closes it. */
    @Override
    public synchronized LookupReader openReader(int[] keyColumns) throws Exception {
        String key = Arrays.toString(keyColumns);
        FileKeyIndex index = indexes.get(key);
        if (index == null) {
            index = new FileKeyIndex(this, context.table().schema().rowType(), keyColumns);
            indexes.put(key, index);
        }
        FileKeyIndex shared = index;
        return new LookupReader() {
            @Override
            public List<Object[]> lookup(Object[] key) throws Exception {
                return shared.lookup(key);
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public List<ScanRange> planScan(int maxRanges) throws IOException {
        List<Path> files = currentFiles();
        long total = 0;
        for (Path f : files) {
            total += Files.size(f);
        }
        long rangeBytes = Math.max(MIN_RANGE_BYTES, total / Math.max(1, maxRanges) + 1);
        List<ScanRange> ranges = new ArrayList<>();
        for (Path f : files) {
            long size = Files.size(f);
            for (long start = 0; start < size || start == 0; start += rangeBytes) {
                ranges.add(new FileRange(f, start, Math.min(size, start + rangeBytes)));
                if (size == 0) {
                    break;
                }
            }
        }
        return ranges;
    }

    @Override
    public void scan(ScanRange range, RowConsumer out) throws Exception {
        FileRange r = (FileRange) range;
        readLines(name(), r.file(), r.start(), r.end(), decoder(), (start, length, values) -> out.accept(values));
    }

    /** Receives the decoded rows of a line and where the line is. */
    @FunctionalInterface
    interface LineConsumer {
        void accept(long start, int length, Object[] values) throws Exception;
    }

    /**
     * Decodes the lines that start in {@code [start, end)} of a file (a line starting before {@code start} belongs to
     * the range before); a line that does not decode fails the read, naming the file and byte offset.
     */
    static void readLines(String table, Path file, long start, long end, RowDecoder decoder, LineConsumer out)
            throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long pos = Math.max(0, start - 1);
            ch.position(pos);
            InputStream in = new BufferedInputStream(Channels.newInputStream(ch), 1 << 16);
            if (start > 0) {
                int b;
                while ((b = in.read()) >= 0) {
                    pos++;
                    if (b == '\n') {
                        break;
                    }
                }
            }
            byte[] line = new byte[256];
            List<Object[]> rows = new ArrayList<>(2);
            while (pos < end) {
                long lineStart = pos;
                int n = 0;
                int b;
                while ((b = in.read()) >= 0 && b != '\n') {
                    if (n == line.length) {
                        line = Arrays.copyOf(line, n * 2);
                    }
                    line[n++] = (byte) b;
                    pos++;
                }
                if (b < 0 && n == 0) {
                    break;
                }
                pos++;
                int length = n > 0 && line[n - 1] == '\r' ? n - 1 : n;
                if (length == 0) {
                    continue;
                }
                rows.clear();
                try {
                    decoder.decode(Arrays.copyOf(line, length), rows::add);
                } catch (DecodeException e) {
                    throw new IOException("dimension table " + table + ": file " + file + " byte " + lineStart
                            + ": " + e.getMessage(), e);
                }
                for (Object[] values : rows) {
                    out.accept(lineStart, length, values);
                }
            }
        }
    }

    String name() {
        return context.table().name();
    }

    /** The files the table's path names now. */
    List<Path> currentFiles() {
        return new FileSource(context).files();
    }

    /** A decoder of the table's lines (one per thread: decoders are not thread-safe). */
    RowDecoder decoder() {
        TableSchema schema = context.table().schema();
        return context.createDecoder(FileConnectorFactory.defaultFormat(context), schema.physicalRowType(),
                schema.physicalPositions(), schema.columns().size());
    }

    @Override
    public String description() {
        return "file " + location;
    }

    @Override
    public synchronized void close() {
        indexes.values().forEach(FileKeyIndex::close);
        indexes.clear();
    }
}
