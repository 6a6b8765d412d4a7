package dev.rsql.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code -D key=value} option of the commands that run something: settings over {@code conf/rsql.conf}. */
final class SettingsOption {

    static final CliOption OPTION = new CliOption(List.of("-D", "--set"), CliOption.Kind.SETTINGS, "KEY=VALUE",
            "Engine setting overriding conf/rsql.conf, e.g. -D worker.threads=2.");

    private SettingsOption() {
    }

    /** The installation's settings with the command line's over them. */
    static Map<String, String> over(EngineHome home, CommandArgs args) {
        Map<String, String> config = new LinkedHashMap<>(home.loadConfig());
        config.putAll(args.settings());
        return config;
    }
}
