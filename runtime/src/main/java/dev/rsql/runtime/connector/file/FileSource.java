package dev.rsql.runtime.connector.file;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ShardListener;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.format.FormatMetadata;
import dev.rsql.runtime.format.GuardedRowDecoder;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.types.DataType;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Bounded source over the lines of one or more files; each file is a shard. With option {@code scan.read-ahead}
 * (default: on when the JVM has more than one processor) each file is read and decoded ahead on another thread
 * ({@link FileReadAhead}).
 */
final class FileSource implements Source {

    static final String READ_AHEAD = "scan.read-ahead";

    private final ConnectorContext context;
    private final List<Path> files;
    private final Path base;
    private final Path resolvedPath;
    private final int[] pathColumns;
    private final int[] lineColumns;
    private final boolean[] lineAsInt;
    private final boolean readAhead;

    FileSource(ConnectorContext context) {
        this.context = context;
        this.readAhead = context.options().getBoolean(Runtime.getRuntime().availableProcessors() > 1, READ_AHEAD);
        String table = context.table().name();
        String location = context.options().require(FileConnectorFactory.PATH_KEYS);
        Path p = toPath(location);
        AllowedPaths allowed = AllowedPaths.of(context.job().config());
        allowed.check("file source", table, p);
        this.resolvedPath = p;
        List<Path> found = new ArrayList<>();
        try {
            if (Files.isRegularFile(p)) {
                found.add(p);
                base = p.getParent();
            } else if (Files.isDirectory(p)) {
                base = p;
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
                    for (Path f : ds) {
                        if (Files.isRegularFile(f) && !isHidden(f)) {
                            found.add(f);
                        }
                    }
                }
            } else if (p.getFileName() != null && isGlob(p.getFileName().toString())) {
                base = p.getParent();
                if (base == null || !Files.isDirectory(base)) {
                    throw new ConfigException("file source of table " + table + ": directory " + base
                            + " of path '" + location + "' does not exist");
                }
                PathMatcher m = base.getFileSystem().getPathMatcher("glob:" + p.getFileName());
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(base)) {
                    for (Path f : ds) {
                        if (Files.isRegularFile(f) && !isHidden(f) && m.matches(f.getFileName())) {
                            found.add(f);
                        }
                    }
                }
                if (found.isEmpty()) {
                    throw new ConfigException("file source of table " + table + ": no file matches '" + location + "'");
                }
            } else {
                throw new ConfigException("file source of table " + table + ": path '" + location + "' does not exist"
                        + (location.equals(p.toString()) ? "" : " (" + p + ")"));
            }
        } catch (IOException e) {
            throw new ConfigException("file source of table " + table + ": cannot list '" + location + "': " + e, e);
        }
        found.sort(null);
        for (Path f : found) {
            allowed.check("file source", table, f); // a file in an allowed directory may link elsewhere
        }
        this.files = List.copyOf(found);

        TableSchema schema = context.table().schema();
        List<Integer> paths = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        List<Boolean> asInt = new ArrayList<>();
        List<Column> columns = schema.columns();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            if (!c.isMetadata() || FormatMetadata.isFormatKey(c.metadataKey())) {
                continue;
            }
            String key = c.metadataKey().toLowerCase(Locale.ROOT);
            DataType.Kind k = c.type().kind();
            switch (key) {
                case "file.path":
                case "path":
                case "file_path":
                case "filepath":
                    if (!k.isCharacter()) {
                        throw new ConfigException("file source of table " + table + ": metadata column " + c.name()
                                + " ('" + c.metadataKey() + "') must be STRING, not " + c.type());
                    }
                    paths.add(i);
                    break;
                case "line":
                case "offset":
                case "line_number":
                    if (k != DataType.Kind.BIGINT && k != DataType.Kind.INT) {
                        throw new ConfigException("file source of table " + table + ": metadata column " + c.name()
                                + " ('" + c.metadataKey() + "') must be BIGINT, not " + c.type());
                    }
                    lines.add(i);
                    asInt.add(k == DataType.Kind.INT);
                    break;
                default:
                    throw new ConfigException("file source of table " + table + ": unknown metadata key '"
                            + c.metadataKey() + "' of column " + c.name() + "; available: file.path (STRING), line (BIGINT)");
            }
        }
        // fail early on a bad format or format options, not in the first shard
        context.createDecoder(FileConnectorFactory.defaultFormat(context), schema.physicalRowType(),
                schema.physicalPositions(), columns.size());
        pathColumns = paths.stream().mapToInt(Integer::intValue).toArray();
        lineColumns = lines.stream().mapToInt(Integer::intValue).toArray();
        lineAsInt = new boolean[asInt.size()];
        for (int i = 0; i < lineAsInt.length; i++) {
            lineAsInt[i] = asInt.get(i);
        }
    }

    static Path toPath(String location) {
        String s = location.trim();
        if (s.startsWith("file://")) {
            s = s.substring("file://".length());
        } else if (s.startsWith("file:")) {
            s = s.substring("file:".length());
        }
        if (s.startsWith("~/")) {
            s = System.getProperty("user.home") + s.substring(1);
        }
        return Path.of(s).toAbsolutePath().normalize();
    }

    private static boolean isHidden(Path f) {
        String n = f.getFileName().toString();
        return n.startsWith(".") || n.startsWith("_");
    }

    private static boolean isGlob(String name) {
        return name.indexOf('*') >= 0 || name.indexOf('?') >= 0 || name.indexOf('[') >= 0 || name.indexOf('{') >= 0;
    }

    List<Path> files() {
        return files;
    }

    @Override
    public boolean isBounded() {
        return true;
    }

    /** The path: line positions mean nothing in other files. */
    @Override
    public String identity() {
        return "path " + resolvedPath;
    }

    @Override
    public void start(ShardListener listener) {
        TableSchema schema = context.table().schema();
        List<ShardReader> readers = new ArrayList<>();
        int maxRecordBytes = GuardedRowDecoder.maxRecordBytes(context.options());
        for (Path f : files) {
            String shardId = base == null ? f.getFileName().toString() : base.relativize(f).toString();
            long startLine = listener.checkpointedPosition(shardId).orElse(0);
            FileShardReader reader = new FileShardReader(shardId, f,
                    context.createDecoder(FileConnectorFactory.defaultFormat(context), schema.physicalRowType(), schema.physicalPositions(), schema.columns().size()),
                    maxRecordBytes, pathColumns, lineColumns, lineAsInt, startLine);
            readers.add(readAhead ? new FileReadAhead(reader, startLine) : reader);
        }
        listener.shardsAssigned(readers);
        listener.noMoreShards();
    }

    @Override
    public void close() {
    }
}
