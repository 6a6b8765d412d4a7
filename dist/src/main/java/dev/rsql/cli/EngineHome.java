package dev.rsql.cli;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Placeholders;
import dev.rsql.runtime.spi.ExtClassLoader;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The directory layout of an installation ({@code bin conf jobs ext lib log}, plus {@code run} and {@code state}
 * created as needed), the engine settings in {@code conf/rsql.conf}, and job names.
 *
 * <p>A job is a script under {@code jobs/}: {@code jobs/x.sql} is job {@code x}, {@code jobs/ns/y.sql} is job
 * {@code ns/y} (two levels, as in rsqldb).
 */
public final class EngineHome {

    public static final String CONF_FILE = "rsql.conf";

    private final Path home;
    private final Function<String, String> environment;

    public EngineHome(Path home, Function<String, String> environment) {
        this.home = home.toAbsolutePath().normalize();
        this.environment = environment;
    }

    public Path home() {
        return home;
    }

    public Path jobsDir() {
        return home.resolve("jobs");
    }

    public Path runDir() {
        return home.resolve("run");
    }

    public Path extDir() {
        return home.resolve("ext");
    }

    /**
     * Engine settings: {@code conf/rsql.conf} (Java properties) with {@code ${ENV}} and {@code ${ENV:default}}
     * resolved from the environment, plus {@code rsql.home}. Relative directory settings are resolved against home.
     */
    public Map<String, String> loadConfig() {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("rsql.home", home.toString());
        config.put("state.dir", home.resolve("state").toString());
        config.put("log.dir", home.resolve("log").toString());
        Path file = home.resolve("conf").resolve(CONF_FILE);
        if (Files.isRegularFile(file)) {
            Properties props = new Properties();
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                props.load(r);
            } catch (IOException e) {
                throw new ConfigException("cannot read " + file + ": " + e.getMessage(), e);
            }
            for (String key : props.stringPropertyNames().stream().sorted().collect(Collectors.toList())) {
                String value;
                try {
                    value = Placeholders.resolve(props.getProperty(key), name -> lookup(name, config));
                } catch (ConfigException e) {
                    throw new ConfigException(file + ", setting '" + key + "': " + e.getMessage());
                }
                config.put(key, value.trim());
            }
        }
        for (String dirKey : List.of("state.dir", "log.dir")) {
            config.put(dirKey, home.resolve(config.get(dirKey)).normalize().toString());
        }
        return config;
    }

    private String lookup(String name, Map<String, String> config) {
        if (name.equals("rsql.home") || name.equals("RSQL_HOME")) {
            return home.toString();
        }
        String v = environment.apply(name);
        return v != null ? v : config.get(name);
    }

    /** The endings of job files: SQL scripts and rule files ({@code dev.rsql.planner.rulefile.RuleFile}). */
    private static final List<String> JOB_FILE_ENDINGS = List.of(".sql", ".rules.yaml", ".rules.yml", ".rules.json");

    /**
     * The job name of a script: its path under jobs/ without {@code .sql} (or a rule file's {@code .rules.yaml}),
     * or the file name for other paths.
     */
    public String jobName(Path script) {
        Path abs = script.toAbsolutePath().normalize();
        Path jobs = jobsDir();
        String name;
        if (abs.startsWith(jobs)) {
            name = jobs.relativize(abs).toString().replace('\\', '/');
        } else {
            name = abs.getFileName().toString();
        }
        String lower = name.toLowerCase(Locale.ROOT);
        for (String ending : JOB_FILE_ENDINGS) {
            if (lower.endsWith(ending)) {
                return name.substring(0, name.length() - ending.length());
            }
        }
        return name;
    }

    /**
     * The script of a job name, e.g. {@code ns/y} → {@code jobs/ns/y.sql}, or the job's rule file when there is one
     * and no SQL script.
     */
    public Path script(String jobName) {
        for (String ending : JOB_FILE_ENDINGS) {
            Path p = jobsDir().resolve(jobName + ending);
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        return jobsDir().resolve(jobName + ".sql");
    }

    private static boolean isJobFile(Path p) {
        String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return JOB_FILE_ENDINGS.stream().anyMatch(name::endsWith);
    }

    /** Every job under jobs/ (scripts at most one directory deep), sorted. */
    public List<String> jobNames() throws IOException {
        if (!Files.isDirectory(jobsDir())) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(jobsDir(), 2)) {
            return files.filter(p -> Files.isRegularFile(p) && isJobFile(p))
                    .map(this::jobName).distinct().sorted().collect(Collectors.toList());
        }
    }

    /**
     * A class loader over the jars in ext/ (user connectors, formats, functions), parent the engine's. Each jar has
     * its own loader ({@link ExtClassLoader}), so jars that bundle different versions of one library do not clash; a
     * class is looked up in the engine first, then in the jars in name order.
     */
    public ClassLoader extClassLoader(ClassLoader parent) throws IOException {
        if (!Files.isDirectory(extDir())) {
            return parent;
        }
        List<Path> jars;
        try (Stream<Path> files = Files.list(extDir())) {
            jars = files.filter(p -> p.toString().endsWith(".jar")).sorted().collect(Collectors.toList());
        }
        return jars.isEmpty() ? parent : new ExtClassLoader(jars, parent);
    }

    /** Where a job's process id is kept while it runs in the background. */
    public Path pidFile(String jobName, String instance) {
        return runDir().resolve(jobName + suffix(instance) + ".pid");
    }

    /** Where a running job instance publishes its status. */
    public Path statusFile(String jobName, String instance) {
        return runDir().resolve(jobName + suffix(instance) + ".status.json");
    }

    private static String suffix(String instance) {
        return instance == null || instance.isEmpty() ? "" : "@" + instance;
    }
}
