package dev.rsql.planner;

import dev.rsql.runtime.config.Options;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What the planner needs from its surroundings: engine settings, the class loader, the environment, and the
 * functions the application registered as objects.
 */
public final class PlannerContext {

    private final Options config;
    private final ClassLoader classLoader;
    private final Function<String, String> environment;
    private final Map<String, Object> functions;

    public PlannerContext(Options config, ClassLoader classLoader, Function<String, String> environment) {
        this(config, classLoader, environment, Map.of());
    }

    private PlannerContext(Options config, ClassLoader classLoader, Function<String, String> environment,
                           Map<String, Object> functions) {
        this.config = config;
        this.classLoader = classLoader;
        this.environment = environment;
        this.functions = functions;
    }

    /**
     * This context with functions every script may call without CREATE FUNCTION (an embedding application's, by
     * name): instances of the classes CREATE FUNCTION accepts. A script's CREATE FUNCTION of the same name wins.
     */
    public PlannerContext withFunctions(Map<String, Object> functions) {
        return new PlannerContext(config, classLoader, environment,
                java.util.Collections.unmodifiableMap(new LinkedHashMap<>(functions)));
    }

    /** Defaults for tests and tools: no settings, this class loader, the process environment. */
    public static PlannerContext defaults() {
        return new PlannerContext(Options.empty(), PlannerContext.class.getClassLoader(), System::getenv);
    }

    /** Engine settings from conf/; WITH values may reference them as {@code ${key}}. */
    public Options config() {
        return config;
    }

    public ClassLoader classLoader() {
        return classLoader;
    }

    /** Functions registered as objects, by name. */
    public Map<String, Object> functions() {
        return functions;
    }

    /** Environment variables, for {@code ${NAME}} in WITH values. */
    public Function<String, String> environment() {
        return environment;
    }
}
