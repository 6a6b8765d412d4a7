package dev.rsql.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A script given on the command line: a file path, or a job name under jobs/. */
final class ScriptArgument {

    final Path file;
    final String jobName;
    final String text;

    private ScriptArgument(Path file, String jobName, String text) {
        this.file = file;
        this.jobName = jobName;
        this.text = text;
    }

    static ScriptArgument resolve(EngineHome home, String arg, String nameOverride) {
        Path file = Path.of(arg);
        if (!Files.isRegularFile(file)) {
            file = home.script(arg);
        }
        if (!Files.isRegularFile(file)) {
            throw new UsageException("no script " + arg + " (neither a file nor a job under " + home.jobsDir() + ")");
        }
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            return new ScriptArgument(file, nameOverride != null ? nameOverride : home.jobName(file), text);
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage());
        }
    }
}
