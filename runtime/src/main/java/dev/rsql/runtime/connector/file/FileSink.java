package dev.rsql.runtime.connector.file;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.types.RowType;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Writes one encoded row per line. In file mode every writer of the job appends to one shared file: each writer
 * buffers whole lines and hands them to the file under a lock, so lines never interleave; {@code flush()} writes
 * and forces the file to disk. In directory mode each writer has its own {@code part-<taskIndex>.<ext>} file.
 */
final class FileSink implements Sink {

    /** Flush a writer's buffer to the file (without forcing) once it holds this much. */
    private static final int WRITE_THRESHOLD = 1 << 20;

    /** Files open for writing in this process, shared by every sink writing the same path. */
    private static final Map<Path, SharedFile> OPEN = new ConcurrentHashMap<>();

    private final ConnectorContext context;
    private final String table;
    private final RowType payloadType;
    private final int[] payloadPositions;   // null when the row is exactly the payload
    private final Path directory;            // directory mode
    private final String extension;
    private final SharedFile shared;         // file mode
    private final AllowedPaths allowed;

    FileSink(ConnectorContext context) {
        this.context = context;
        this.table = context.table().name();
        String location = context.options().require(FileConnectorFactory.PATH_KEYS);
        boolean append = context.options().getBoolean(true, "append", "needAppend");
        TableSchema schema = context.table().schema();
        this.payloadType = schema.physicalRowType();
        int[] positions = schema.physicalPositions();
        this.payloadPositions = positions.length == schema.columns().size() ? null : positions;
        String format = FileConnectorFactory.formatName(context).toLowerCase(Locale.ROOT);
        this.extension = format.equals("json") ? "jsonl" : format.equals("raw") ? "txt" : format;
        // fail early on a bad format or format options
        context.createEncoder(FileConnectorFactory.defaultFormat(context), payloadType);

        Path p = FileSource.toPath(location);
        this.allowed = AllowedPaths.of(context.job().config());
        allowed.check("file sink", table, p);
        String trimmed = location.trim();
        try {
            if (trimmed.endsWith("/") || trimmed.endsWith(File.separator) || Files.isDirectory(p)) {
                this.directory = p;
                this.shared = null;
                Files.createDirectories(p);
                if (!append) {
                    deleteOwnParts(p);
                }
            } else {
                this.directory = null;
                Path parent = p.getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                this.shared = SharedFile.acquire(table, p, !append);
            }
        } catch (IOException e) {
            throw new ConfigException("file sink of table " + table + ": cannot prepare '" + location + "': " + e, e);
        }
    }

    @Override
    public SinkWriter createWriter(SinkWriterContext writerContext) throws IOException {
        RowEncoder encoder = context.createEncoder(FileConnectorFactory.defaultFormat(context), payloadType);
        if (shared != null) {
            return new Writer(encoder, shared, false);
        }
        Path part = directory.resolve("part-" + writerContext.taskIndex() + "." + extension);
        allowed.check("file sink", table, part); // a part file may be a link elsewhere
        return new Writer(encoder, SharedFile.acquire(table, part, false), true);
    }

    /** Deletes the part files earlier runs wrote; a part file this sink did not create stops it instead. */
    private void deleteOwnParts(Path dir) throws IOException {
        Pattern part = Pattern.compile("part-\\d+\\." + Pattern.quote(extension));
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path f : ds) {
                if (!part.matcher(f.getFileName().toString()).matches()) {
                    continue;
                }
                if (OwnedFiles.owned(f)) {
                    OwnedFiles.delete(f);
                } else if (!OwnedFiles.mayTruncate(f)) {
                    throw foreign(table, f);
                }
            }
        }
    }

    static ConfigException foreign(String table, Path f) {
        return new ConfigException("file sink of table " + table + ": " + f + " was not written by a file sink and"
                + " 'append' is false: it is left alone; move it away or set 'append' = 'true'");
    }

    @Override
    public void close() {
        if (shared != null) {
            shared.release();
        }
    }

    /** A file open for appending, reference-counted across the sinks of this process. */
    static final class SharedFile {
        final Path path;
        private FileChannel channel;
        private int refs;

        private SharedFile(Path path) {
            this.path = path;
        }

        static SharedFile acquire(String table, Path path, boolean truncate) throws IOException {
            synchronized (OPEN) {
                SharedFile f = OPEN.computeIfAbsent(path, SharedFile::new);
                synchronized (f) {
                    boolean created = !Files.exists(path, LinkOption.NOFOLLOW_LINKS);
                    if (truncate && !OwnedFiles.mayTruncate(path)) {
                        if (f.refs == 0) {
                            OPEN.remove(path, f);
                        }
                        throw foreign(table, path);
                    }
                    if (truncate) {
                        try (FileChannel c = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                                StandardOpenOption.TRUNCATE_EXISTING)) {
                            c.force(true);
                        }
                    }
                    if (f.channel == null) {
                        f.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                                StandardOpenOption.APPEND);
                    }
                    if (created) {
                        OwnedFiles.created(path);
                    }
                    f.refs++;
                }
                return f;
            }
        }

        /** Appends whole lines; optionally forces them to disk. */
        synchronized void write(byte[] data, int len, boolean force) throws IOException {
            ByteBuffer bb = ByteBuffer.wrap(data, 0, len);
            while (bb.hasRemaining()) {
                channel.write(bb);
            }
            if (force) {
                channel.force(false);
            }
        }

        synchronized void force() throws IOException {
            channel.force(false);
        }

        void release() {
            synchronized (OPEN) {
                synchronized (this) {
                    if (--refs > 0) {
                        return;
                    }
                    try {
                        if (channel != null) {
                            channel.close();
                        }
                    } catch (IOException ignored) {
                        // everything was written and forced by the writers' flushes
                    }
                    channel = null;
                }
                OPEN.remove(path, this);
            }
        }
    }

    /** Buffers the lines of one task. */
    private final class Writer implements SinkWriter {
        private final RowEncoder encoder;
        private final SharedFile file;
        private final boolean ownsFile;
        private byte[] buf = new byte[64 * 1024];
        private int len;
        private boolean unforced;
        private boolean closed;

        Writer(RowEncoder encoder, SharedFile file, boolean ownsFile) {
            this.encoder = encoder;
            this.file = file;
            this.ownsFile = ownsFile;
        }

        @Override
        public void write(Row row) throws IOException {
            Row payload = row;
            if (payloadPositions != null) {
                Object[] all = row.fields();
                Object[] p = new Object[payloadPositions.length];
                for (int i = 0; i < p.length; i++) {
                    p[i] = all[payloadPositions[i]];
                }
                payload = row.withFields(p);
            }
            byte[] line = encoder.encode(payload);
            if (len + line.length + 1 > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + line.length + 1));
            }
            System.arraycopy(line, 0, buf, len, line.length);
            len += line.length;
            buf[len++] = '\n';
            if (len >= WRITE_THRESHOLD) {
                writeOut(false);
            }
        }

        private void writeOut(boolean force) throws IOException {
            try {
                if (len > 0) {
                    file.write(buf, len, force);
                    len = 0;
                    unforced = !force;
                    if (buf.length > 4 * WRITE_THRESHOLD) {
                        buf = new byte[64 * 1024];
                    }
                } else if (force && unforced) {
                    file.force();
                    unforced = false;
                }
            } catch (IOException e) {
                throw new IOException("file sink of table " + table + ": cannot write " + file.path + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void flush() throws IOException {
            writeOut(true);
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            try {
                flush();
            } finally {
                if (ownsFile) {
                    file.release();
                }
            }
        }
    }
}
