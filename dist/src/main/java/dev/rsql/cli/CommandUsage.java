package dev.rsql.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What {@code --help} says of a command, and what its command line may hold: options, positional arguments, exit
 * codes, and for {@code rsql} itself the commands.
 *
 * @param name        the words that call it ({@code rsql run})
 * @param description one sentence
 * @param options     its own options; {@link #HELP} and {@link #VERSION} are every command's
 * @param parameter   its positional arguments; null when it takes none
 * @param exitCodes   {@code "code:meaning"}
 * @param commands    the commands that follow it (only {@code rsql}'s own usage has any)
 * @param footer      a last paragraph, or null
 */
record CommandUsage(String name, String description, List<CliOption> options, CliParameter parameter,
                    List<String> exitCodes, List<CommandUsage> commands, String footer) {

    static final CliOption HELP = new CliOption(List.of("-h", "--help"), CliOption.Kind.FLAG, null,
            "Show this help message and exit.");
    static final CliOption VERSION = new CliOption(List.of("-V", "--version"), CliOption.Kind.FLAG, null,
            "Print version information and exit.");
    static final String VERSION_TEXT = "rsql 0.1.0";

    private static final int WIDTH = 80;
    private static final int MAX_LABEL_COLUMN = 30;

    CommandUsage {
        List<CliOption> all = new ArrayList<>(options);
        all.add(HELP);
        all.add(VERSION);
        all.sort(Comparator.comparing(o -> o.longName().replaceFirst("^-+", "").toLowerCase()));
        options = List.copyOf(all);
        exitCodes = List.copyOf(exitCodes);
        commands = List.copyOf(commands);
    }

    /** A command of {@code rsql}. */
    static CommandUsage of(String command, String description, List<CliOption> options, CliParameter parameter,
                           String... exitCodes) {
        return new CommandUsage("rsql " + command, description, options, parameter, List.of(exitCodes), List.of(),
                null);
    }

    /** The option called {@code name}, or null. */
    CliOption option(String name) {
        for (CliOption o : options) {
            if (o.named(name)) {
                return o;
            }
        }
        return null;
    }

    /** The command's last word ({@code run} for {@code rsql run}). */
    String command() {
        return name.substring(name.lastIndexOf(' ') + 1);
    }

    String help() {
        StringBuilder out = new StringBuilder("Usage: ").append(name).append(" [OPTIONS]");
        if (!commands.isEmpty()) {
            out.append(" COMMAND");
        }
        if (parameter != null) {
            out.append(' ').append(parameter.synopsis());
        }
        out.append('\n').append(description).append('\n');
        List<String[]> rows = new ArrayList<>();
        if (parameter != null) {
            rows.add(new String[] {"      " + parameter.label(), parameter.description()});
        }
        for (CliOption o : options) {
            String names = o.names().size() > 1 ? String.join(", ", o.names()) : "    " + o.names().get(0);
            rows.add(new String[] {"  " + names + (o.label() == null ? "" : " " + o.label()), o.description()});
        }
        table(out, rows);
        if (!commands.isEmpty()) {
            out.append("Commands:\n");
            List<String[]> list = new ArrayList<>();
            commands.forEach(c -> list.add(new String[] {"  " + c.command(), c.description()}));
            table(out, list);
        }
        if (!exitCodes.isEmpty()) {
            out.append("\nExit codes:\n");
            List<String[]> list = new ArrayList<>();
            for (String code : exitCodes) {
                int colon = code.indexOf(':');
                list.add(new String[] {"  " + code.substring(0, colon), code.substring(colon + 1)});
            }
            table(out, list);
        }
        if (footer != null) {
            out.append('\n').append(footer).append('\n');
        }
        return out.toString();
    }

    /** Rows of a label and its text, the texts in one column wrapped at {@link #WIDTH}. */
    private static void table(StringBuilder out, List<String[]> rows) {
        int column = 0;
        for (String[] row : rows) {
            if (row[0].length() + 2 <= MAX_LABEL_COLUMN) {
                column = Math.max(column, row[0].length() + 2);
            }
        }
        String indent = " ".repeat(column);
        for (String[] row : rows) {
            out.append(row[0]);
            int at = row[0].length();
            if (at + 1 > column) {
                out.append('\n');
                at = 0;
            }
            out.append(" ".repeat(column - at));
            int line = column;
            boolean first = true;
            for (String word : row[1].split(" ")) {
                if (!first && line + 1 + word.length() > WIDTH) {
                    out.append('\n').append(indent).append("  ");
                    line = column + 2;
                    first = true;
                }
                if (!first) {
                    out.append(' ');
                    line++;
                }
                out.append(word);
                line += word.length();
                first = false;
            }
            out.append('\n');
        }
    }
}
