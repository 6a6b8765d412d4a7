package dev.rsql.cli;

/**
 * The positional arguments of a command, as one group: {@code SCRIPT}, or {@code JOB...}.
 *
 * @param label       its name in {@code --help} and in errors
 * @param description its text in {@code --help}
 * @param min         how many must be given
 * @param max         how many may be given ({@link Integer#MAX_VALUE}: any number)
 */
record CliParameter(String label, String description, int min, int max) {

    static CliParameter one(String label, String description) {
        return new CliParameter(label, description, 1, 1);
    }

    static CliParameter any(String label, String description) {
        return new CliParameter(label, description, 0, Integer.MAX_VALUE);
    }

    /** The label as the synopsis shows it: {@code SCRIPT}, {@code [JOB...]}, {@code JOB...}. */
    String synopsis() {
        String repeat = max > 1 ? label + "..." : label;
        return min == 0 ? "[" + repeat + "]" : repeat;
    }
}
