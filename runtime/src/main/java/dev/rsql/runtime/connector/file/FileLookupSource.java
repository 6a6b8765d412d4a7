package dev.rsql.runtime.connector.file;

import dev.rsql.runtime.connector.ConnectorContext;
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
 * A file table as a dimension table (JSON lines, CSV, any line format of the file connector): it can only be
 * scanned, so it is fully cached. Each load lists the files again (a glob or directory may gain files) and splits
 * them into byte ranges on line boundaries, so that one large file loads on several threads; a range reads the
 * lines that start inside it. A line that does not decode fails the load, naming the file and byte offset.
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

    FileLookupSource(ConnectorContext context) {
        this.context = context;
        this.location = new FileSource(context).identity();
    }

    @Override
    public boolean supportsPointLookup() {
        return false;
    }

    @Override
    public List<ScanRange> planScan(int maxRanges) throws IOException {
        List<Path> files = new FileSource(context).files();
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
        TableSchema schema = context.table().schema();
        RowDecoder decoder = context.createDecoder(FileConnectorFactory.defaultFormat(context),
                schema.physicalRowType(), schema.physicalPositions(), schema.columns().size());
        try (FileChannel ch = FileChannel.open(r.file(), StandardOpenOption.READ)) {
            long pos = Math.max(0, r.start() - 1);
            ch.position(pos);
            InputStream in = new BufferedInputStream(Channels.newInputStream(ch), 1 << 16);
            if (r.start() > 0) {
                // the line that starts before the range belongs to the previous one
                int b;
                while ((b = in.read()) >= 0) {
                    pos++;
                    if (b == '\n') {
                        break;
                    }
                }
            }
            byte[] line = new byte[256];
            while (pos < r.end()) {
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
                if (n > 0 && line[n - 1] == '\r') {
                    n--;
                }
                if (n == 0) {
                    continue;
                }
                try {
                    decoder.decode(Arrays.copyOf(line, n), values -> {
                        try {
                            out.accept(values);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
                } catch (DecodeException e) {
                    throw new IOException("dimension table " + context.table().name() + ": file " + r.file()
                            + " byte " + lineStart + ": " + e.getMessage(), e);
                }
            }
        }
    }

    @Override
    public String description() {
        return "file " + location;
    }

    @Override
    public void close() {
    }
}
