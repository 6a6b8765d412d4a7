package dev.rsql.runtime.format;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.spi.Providers;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Formats found with {@link java.util.ServiceLoader} on a class loader (the engine's plus the jars in {@code ext/}). */
public final class FormatRegistry {

    private final Map<String, FormatFactory> byName = new TreeMap<>();

    public FormatRegistry(ClassLoader classLoader) {
        for (FormatFactory f : Providers.load(FormatFactory.class, classLoader)) {
            byName.putIfAbsent(f.identifier().toLowerCase(Locale.ROOT), f);
            f.aliases().forEach(a -> byName.putIfAbsent(a.toLowerCase(Locale.ROOT), f));
        }
    }

    /** The table options that name a table's format. */
    public static final String[] FORMAT_KEYS = {"format", "value.format", "data_format", "dataformat"};

    /** The format a table uses: its {@code format} option (or an alias of it), else {@code defaultFormat}. */
    public static String formatName(Options tableOptions, String defaultFormat) {
        return tableOptions.getOrDefault(defaultFormat, FORMAT_KEYS);
    }

    /**
     * True when the table's format keeps row kinds ({@link FormatFactory#encodesRowKind}); also for a format that is
     * not installed, which the connector check reports.
     */
    public boolean encodesRowKind(Options tableOptions, String defaultFormat) {
        FormatFactory f = byName.get(formatName(tableOptions, defaultFormat).toLowerCase(Locale.ROOT));
        return f == null || f.encodesRowKind();
    }

    /** True when the table's format decodes changes ({@link FormatFactory#decodesChangelog}). */
    public boolean decodesChangelog(Options tableOptions, String defaultFormat) {
        FormatFactory f = byName.get(formatName(tableOptions, defaultFormat).toLowerCase(Locale.ROOT));
        return f != null && f.decodesChangelog();
    }

    public FormatFactory get(String name) {
        FormatFactory f = byName.get(name.toLowerCase(Locale.ROOT));
        if (f == null) {
            throw new ConfigException("format '" + name + "' is not available; known formats: " + byName.keySet());
        }
        return f;
    }
}
