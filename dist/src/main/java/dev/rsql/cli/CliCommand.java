package dev.rsql.cli;

/** A command of {@code rsql}: what {@code --help} says of it, and what it does with its arguments. */
interface CliCommand {

    CommandUsage usage();

    /**
     * Runs the command; its exit code (each command's {@code --help} lists them). A {@link UsageException} ends it
     * with 2, any other exception with 1.
     */
    int run(EngineHome home, CommandArgs args) throws Exception;
}
