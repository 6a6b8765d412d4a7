package dev.rsql.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The script a command runs or sends, and the job name it runs under: {@code SCRIPT [--name NAME]}. */
final class ScriptOptions {

    @Parameters(index = "0", description = "Script file or job name.")
    private String script;

    @Option(names = "--name", description = "Job name (default: the script's path under jobs/ without .sql).")
    private String name;

    ScriptArgument resolve(EngineHome home) {
        return ScriptArgument.resolve(home, script, name);
    }
}
