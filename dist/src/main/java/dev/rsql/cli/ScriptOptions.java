package dev.rsql.cli;

/** The script a command runs or sends, and the job name it runs under: {@code SCRIPT [--name NAME]}. */
final class ScriptOptions {

    static final CliParameter SCRIPT = CliParameter.one("SCRIPT", "Script file or job name.");
    static final CliOption NAME = CliOption.value("--name", "NAME",
            "Job name (default: the script's path under jobs/ without .sql).");

    private ScriptOptions() {
    }

    static ScriptArgument resolve(EngineHome home, CommandArgs args) {
        return ScriptArgument.resolve(home, args.parameter(), args.value(NAME));
    }
}
