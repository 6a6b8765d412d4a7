package dev.rsql.planner;

import dev.rsql.runtime.config.Options;

import java.util.function.Function;

/** What the planner needs from its surroundings: engine settings, the class loader, the environment. */
public final class PlannerContext {

    private final Options config;
    private final ClassLoader classLoader;
    private final Function<String, String> environment;

    public PlannerContext(Options config, ClassLoader classLoader, Function<String, String> environment) {
        this.config = config;
        this.classLoader = classLoader;
        this.environment = environment;
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

    /** Environment variables, for {@code ${NAME}} in WITH values. */
    public Function<String, String> environment() {
        return environment;
    }
}
