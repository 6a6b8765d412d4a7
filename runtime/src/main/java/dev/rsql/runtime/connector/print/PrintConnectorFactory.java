package dev.rsql.runtime.connector.print;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.LocalTimeZone;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.format.json.ValueText;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Connector {@code print} (sink only): writes each row the way Flink's print sink does, e.g.
 * {@code +I[1, foo, 2024-03-01 10:00:01.390]}, prefixed with {@code <print-identifier>> } when that option is set.
 *
 * <p>Options: {@code print-identifier}; {@code target} (also {@code sink.print.target}): {@code stdout} (default),
 * {@code stderr} or {@code log} (logger {@code dev.rsql.print}, INFO, one event per row); Flink's
 * {@code standard-error = true} means stderr; Blink's {@code ignoreWrite = true} discards the rows;
 * {@code print.format}: {@code row} (default, as above) or {@code json} (one JSON object per row, as rsqldb printed,
 * with an {@code op} member for rows other than inserts). Each writer
 * buffers its lines and prints them in one piece on flush, so lines of concurrent tasks never interleave.
 */
public final class PrintConnectorFactory implements ConnectorFactory {

    static final Logger PRINT_LOG = LoggerFactory.getLogger("dev.rsql.print");

    /** A writer prints what it holds without waiting for a flush once it holds this many characters. */
    private static final int EAGER_CHARS = 64 * 1024;

    enum Target { STDOUT, STDERR, LOG, DISCARD }

    @Override
    public String identifier() {
        return "print";
    }

    /** Creating the sink opens nothing. */
    @Override
    public void validateSink(ConnectorContext context) {
        createSink(context);
    }

    @Override
    public Sink createSink(ConnectorContext context) {
        String table = context.table().name();
        String id = context.options().get("print-identifier", "printIdentifier", "print.identifier");
        String prefix = id == null || id.isEmpty() ? "" : id + "> ";
        Target target;
        String t = context.options().get("target", "sink.print.target", "print.target");
        boolean stdErr = context.options().getBoolean(false, "standard-error", "standardError");
        if (t == null || t.isBlank()) {
            target = stdErr ? Target.STDERR : Target.STDOUT;
        } else {
            switch (t.trim().toLowerCase(Locale.ROOT)) {
                case "stdout":
                case "system.out":
                case "out":
                    target = Target.STDOUT;
                    break;
                case "stderr":
                case "system.err":
                case "err":
                    target = Target.STDERR;
                    break;
                case "log":
                case "logger":
                    target = Target.LOG;
                    break;
                default:
                    throw ConfigException.ofOption("target",
                            "print sink of table " + table + ": option 'target' must be stdout, "
                            + "stderr or log, got '" + t + "'");
            }
        }
        if (context.options().getBoolean(false, "ignoreWrite", "ignore-write")) {
            target = Target.DISCARD;
        }
        RowType rowType = context.table().schema().rowType();
        DataType[] types = rowType.types().toArray(new DataType[0]);
        boolean json = json(context);
        ZoneId zone = LocalTimeZone.of(context.job());
        if (json) {
            context.createEncoder("json", rowType); // its options are checked now, not on the first row
        }
        Target chosen = target;
        return new Sink() {
            @Override
            public SinkWriter createWriter(SinkWriterContext writerContext) {
                RowRenderer renderer;
                if (json) {
                    RowEncoder encoder = context.createEncoder("json", rowType);
                    renderer = (sb, row) -> sb.append(new String(encoder.encode(row), StandardCharsets.UTF_8));
                } else {
                    renderer = (sb, row) -> render(sb, row, types, zone);
                }
                return new PrintWriter(chosen, prefix, renderer);
            }

            @Override
            public void close() {
            }
        };
    }

    private static boolean json(ConnectorContext context) {
        String f = context.options().getOrDefault("row", "print.format", "print-format");
        switch (f.trim().toLowerCase(Locale.ROOT)) {
            case "row":
            case "flink":
                return false;
            case "json":
                return true;
            default:
                throw ConfigException.ofOption("print.format", "print sink of table " + context.table().name()
                        + ": option 'print.format' must be row or json, got '" + f + "'");
        }
    }

    /** Appends one row's text. */
    private interface RowRenderer {
        void append(StringBuilder sb, Row row);
    }

    /** Renders a row as {@code +I[v1, v2, ...]}; a TIMESTAMP_LTZ as the wall-clock time in {@code zone}. */
    static void render(StringBuilder sb, Row row, DataType[] types, ZoneId zone) {
        sb.append(row.kind().shortString()).append('[');
        Object[] f = row.fields();
        for (int i = 0; i < f.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            appendValue(sb, i < types.length ? types[i] : DataType.string(), f[i], zone);
        }
        sb.append(']');
    }

    /** Appends one value as a row shows it (also the SQL shell's); a TIMESTAMP_LTZ as the wall-clock time in zone. */
    public static void appendValue(StringBuilder sb, DataType type, Object value, ZoneId zone) {
        if (type.kind() == DataType.Kind.TIMESTAMP_LTZ && value instanceof Long millis) {
            long local = millis + zone.getRules().getOffset(Instant.ofEpochMilli(millis)).getTotalSeconds() * 1000L;
            ValueText.appendSql(sb, DataType.of(DataType.Kind.TIMESTAMP), local);
        } else {
            ValueText.appendSql(sb, type, value);
        }
    }

    private static final class PrintWriter implements SinkWriter {
        private final Target target;
        private final String prefix;
        private final RowRenderer renderer;
        private final StringBuilder buffer = new StringBuilder();
        private final List<String> logLines = new ArrayList<>();

        PrintWriter(Target target, String prefix, RowRenderer renderer) {
            this.target = target;
            this.prefix = prefix;
            this.renderer = renderer;
        }

        @Override
        public void write(Row row) {
            if (target == Target.DISCARD) {
                return;
            }
            if (target == Target.LOG) {
                StringBuilder sb = new StringBuilder(prefix);
                renderer.append(sb, row);
                logLines.add(sb.toString());
                if (logLines.size() >= 1024) {
                    flush();
                }
                return;
            }
            buffer.append(prefix);
            renderer.append(buffer, row);
            buffer.append(System.lineSeparator());
            if (buffer.length() >= EAGER_CHARS) {
                flush();
            }
        }

        @Override
        public void flush() {
            switch (target) {
                case LOG:
                    for (String line : logLines) {
                        PRINT_LOG.info("{}", line);
                    }
                    logLines.clear();
                    return;
                case STDOUT:
                case STDERR:
                    if (buffer.length() > 0) {
                        PrintStream ps = target == Target.STDOUT ? System.out : System.err;
                        String text = buffer.toString();
                        buffer.setLength(0);
                        synchronized (ps) {
                            ps.print(text);
                            ps.flush();
                        }
                    }
                    return;
                default:
            }
        }

        @Override
        public void close() {
            flush();
        }
    }
}
