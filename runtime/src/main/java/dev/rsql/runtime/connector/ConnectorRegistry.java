package dev.rsql.runtime.connector;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.spi.Providers;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Connectors found with {@link java.util.ServiceLoader} on a class loader (the engine's plus the jars in {@code ext/}). */
public final class ConnectorRegistry {

    private final Map<String, ConnectorFactory> byName = new TreeMap<>();

    public ConnectorRegistry(ClassLoader classLoader) {
        for (ConnectorFactory f : Providers.load(ConnectorFactory.class, classLoader)) {
            byName.putIfAbsent(f.identifier().toLowerCase(Locale.ROOT), f);
            f.aliases().forEach(a -> byName.putIfAbsent(a.toLowerCase(Locale.ROOT), f));
        }
    }

    public boolean contains(String name) {
        return byName.containsKey(name.toLowerCase(Locale.ROOT));
    }

    /** Identifiers and aliases of the installed connectors. */
    public Set<String> names() {
        return Collections.unmodifiableSet(byName.keySet());
    }

    public ConnectorFactory get(String name) {
        ConnectorFactory f = byName.get(name.toLowerCase(Locale.ROOT));
        if (f == null) {
            throw new ConfigException("connector '" + name + "' is not available; known connectors: " + byName.keySet()
                    + " (a jar in ext/ can add one)");
        }
        return f;
    }
}
