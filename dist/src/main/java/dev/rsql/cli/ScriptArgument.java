package dev.rsql.cli;

import dev.rsql.planner.rulefile.RuleFile;
import dev.rsql.planner.rulefile.RuleFileScript;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A script given on the command line: a file path, or a job name under jobs/. */
final class ScriptArgument {

    final Path file;
    final String jobName;
    /** The file's text as it is (a rule file's YAML or JSON). */
    final String source;

    private ScriptArgument(Path file, String jobName, String source) {
        this.file = file;
        this.jobName = jobName;
        this.source = source;
    }

    /** Whether the file is a rule file, which {@link #text} translates to SQL. */
    boolean isRuleFile() {
        return RuleFile.isRuleFile(file.getFileName().toString());
    }

    /**
     * The script as SQL: the file's text, or the script a rule file stands for.
     *
     * @throws dev.rsql.planner.PlanningException naming the line and column of a rule file's mistake
     */
    String text() {
        return isRuleFile() ? RuleFileScript.sql(file.getFileName().toString(), source) : source;
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
