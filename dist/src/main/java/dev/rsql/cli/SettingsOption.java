package dev.rsql.cli;

import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code -D key=value} option of the commands that run something: settings over {@code conf/rsql.conf}. */
final class SettingsOption {

    @Option(names = {"-D", "--set"},
            description = "Engine setting overriding conf/rsql.conf, e.g. -D worker.threads=2.")
    private Map<String, String> settings = new LinkedHashMap<>();

    /** The installation's settings with the command line's over them. */
    Map<String, String> over(EngineHome home) {
        Map<String, String> config = new LinkedHashMap<>(home.loadConfig());
        config.putAll(settings);
        return config;
    }
}
