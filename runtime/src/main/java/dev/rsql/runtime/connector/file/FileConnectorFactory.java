package dev.rsql.runtime.connector.file;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.LookupSource;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.format.FormatRegistry;

import java.util.Set;

/**
 * Connector {@code file} (alias {@code filesystem}): lines of local files, each decoded with the table's format
 * (option {@code format}, default {@code json}; rsqldb's {@code isJsonData = 'false'} selects {@code csv} with a
 * {@code fieldDelimiter}, else {@code raw}).
 *
 * <p>Options: {@code path} (also {@code filePath}, {@code fileName}, {@code file}) — for reading a file, a directory
 * (every regular, non-hidden file in it, sorted by name, one shard each) or a glob in the last path component
 * ({@code /data/in/*.jsonl}); for writing a file (all tasks append whole lines to it) or a directory (a path ending
 * with {@code /} or an existing directory: each task writes {@code part-<taskIndex>.<ext>}). Sink option
 * {@code append} (rsqldb {@code needAppend}, default true): when false the output (only a file a file sink created,
 * {@link OwnedFiles}; another is refused) is truncated when the sink is
 * created. Source metadata columns: {@code file.path} / {@code path} (STRING, the absolute file path) and
 * {@code line} / {@code offset} (BIGINT, 0-based line number). The engine setting {@code file.allowed-paths}
 * confines both to some directories ({@link AllowedPaths}).
 */
public final class FileConnectorFactory implements ConnectorFactory {

    static final String[] PATH_KEYS = {"path", "filePath", "fileName", "file", "file_path", "file.path"};

    @Override
    public String identifier() {
        return "file";
    }

    @Override
    public Set<String> aliases() {
        return Set.of("filesystem");
    }

    /** The source only lists files when constructed. */
    @Override
    public void validateSource(ConnectorContext context) {
        new FileSource(context);
    }

    /** The sink creates and truncates files when constructed: only what it reads is checked. */
    @Override
    public void validateSink(ConnectorContext context) {
        context.options().require(PATH_KEYS);
        context.options().getBoolean(true, "append", "needAppend");
        context.createEncoder(defaultFormat(context), context.table().schema().physicalRowType());
    }

    @Override
    public Source createSource(ConnectorContext context) {
        return new FileSource(context);
    }

    /** A file is a dimension table too: lines are loaded into a full cache ({@link FileLookupSource}). */
    @Override
    public void validateLookup(ConnectorContext context) {
        refuseChangelogLookup(context);
        new FileSource(context);
    }

    @Override
    public LookupSource createLookupSource(ConnectorContext context) {
        refuseChangelogLookup(context);
        return new FileLookupSource(context);
    }

    /** A file of changes holds no table to look up in until the changes are applied. */
    private static void refuseChangelogLookup(ConnectorContext context) {
        if (context.formatDecodesChangelog(defaultFormat(context))) {
            throw new ConfigException("table " + context.table().name() + ": a file of changes (format '"
                    + formatName(context) + "') cannot be a dimension table of a lookup join; join it as a "
                    + "changelog (a regular or temporal join) instead");
        }
    }

    @Override
    public Sink createSink(ConnectorContext context) {
        return new FileSink(context);
    }

    /** A file of lines keeps row kinds only in a format that encodes them (json's {@code op}). */
    @Override
    public boolean sinkWritesChangelog(Options tableOptions, FormatRegistry formats) {
        return formats.encodesRowKind(tableOptions, defaultFormat(tableOptions));
    }

    @Override
    public boolean sourceReadsChangelog(Options tableOptions, FormatRegistry formats) {
        return formats.decodesChangelog(tableOptions, defaultFormat(tableOptions));
    }

    static String formatName(ConnectorContext context) {
        return FormatRegistry.formatName(context.options(), defaultFormat(context));
    }

    /**
     * {@code json}, unless the table uses rsqldb's {@code isJsonData = 'false'}: then {@code csv} when it sets a
     * {@code fieldDelimiter}, else {@code raw} (the whole line as the single column).
     */
    static String defaultFormat(ConnectorContext context) {
        return defaultFormat(context.options());
    }

    private static String defaultFormat(Options options) {
        if (options.getBoolean(true, "isJsonData")) {
            return "json";
        }
        return options.get("fieldDelimiter", "field-delimiter") != null ? "csv" : "raw";
    }
}
