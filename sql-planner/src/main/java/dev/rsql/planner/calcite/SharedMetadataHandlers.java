package dev.rsql.planner.calcite;

import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.MetadataHandlerProvider;
import org.apache.calcite.rel.metadata.ProxyingMetadataHandlerProvider;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Calcite's default metadata handlers, reflective (Calcite's default generates and compiles a class per kind of
 * metadata at its first use, tens of milliseconds each when a job starts; planning a script asks for little
 * metadata), each made once per JVM. The planner makes a new metadata query after every rule it applies, and each
 * asks for some twenty handlers: made afresh each time (by reflection, as proxies), that was ~15 % of planning an
 * INSERT (sampled). A handler holds no state of a query (the query is an argument of each call), so all share it.
 */
final class SharedMetadataHandlers implements MetadataHandlerProvider {

    static final SharedMetadataHandlers INSTANCE = new SharedMetadataHandlers();

    private final MetadataHandlerProvider provider =
            new ProxyingMetadataHandlerProvider(DefaultRelMetadataProvider.INSTANCE);
    private final Map<Class<?>, MetadataHandler<?>> handlers = new ConcurrentHashMap<>();

    private SharedMetadataHandlers() {
    }

    @Override
    public <MH extends MetadataHandler<?>> MH handler(Class<MH> handlerClass) {
        return handlerClass.cast(handlers.computeIfAbsent(handlerClass, c -> provider.handler(handlerClass)));
    }
}
