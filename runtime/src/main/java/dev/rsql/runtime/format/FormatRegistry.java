package dev.rsql.runtime.format;

import dev.rsql.runtime.config.ConfigException;
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

    public FormatFactory get(String name) {
        FormatFactory f = byName.get(name.toLowerCase(Locale.ROOT));
        if (f == null) {
            throw new ConfigException("format '" + name + "' is not available; known formats: " + byName.keySet());
        }
        return f;
    }
}
