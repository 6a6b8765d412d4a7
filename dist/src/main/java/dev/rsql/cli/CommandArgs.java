package dev.rsql.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A command's arguments as its {@link CommandUsage} reads them. Options as {@code --name value}, {@code --name=value},
 * and for a short name {@code -D key=value} or {@code -Dkey=value}; {@code --} ends the options. For a usage with
 * commands ({@code rsql}'s own), parsing stops at the first positional argument, the command's name: it and what
 * follows are {@link #rest()}.
 */
final class CommandArgs {

    private final Set<CliOption> flags = new HashSet<>();
    private final Map<CliOption, String> values = new HashMap<>();
    private final Map<String, String> settings = new LinkedHashMap<>();
    private final List<String> parameters = new ArrayList<>();
    private List<String> rest = List.of();

    private CommandArgs() {
    }

    /** Reads {@code args} by {@code usage}; throws {@link UsageException} for what it does not allow. */
    static CommandArgs parse(CommandUsage usage, List<String> args) {
        CommandArgs parsed = new CommandArgs();
        boolean options = true;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (options && arg.equals("--")) {
                options = false;
            } else if (options && arg.startsWith("-") && arg.length() > 1) {
                i = parsed.option(usage, args, i);
            } else if (!usage.commands().isEmpty()) {
                parsed.rest = List.copyOf(args.subList(i, args.size()));
                break;
            } else {
                parsed.parameters.add(arg);
            }
        }
        if (!parsed.has(CommandUsage.HELP) && !parsed.has(CommandUsage.VERSION)) {
            parsed.checkParameters(usage.parameter());
        }
        return parsed;
    }

    /** Reads the option at {@code i}; the index of its last word. */
    private int option(CommandUsage usage, List<String> args, int i) {
        String arg = args.get(i);
        String name = arg;
        String inline = null;
        if (arg.startsWith("--")) {
            int eq = arg.indexOf('=');
            if (eq > 0) {
                name = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
        } else if (arg.length() > 2) {
            name = arg.substring(0, 2);
            inline = arg.substring(2);
        }
        CliOption option = usage.option(name);
        if (option == null) {
            throw new UsageException("Unknown option: '" + arg + "'");
        }
        if (option.kind() == CliOption.Kind.FLAG) {
            if (inline != null) {
                // -hV is not two flags here, and --json=yes gives a flag a value
                throw new UsageException(arg.startsWith("--") ? "Option '" + name + "' takes no value: '" + arg + "'"
                        : "Unknown option: '" + arg + "'");
            }
            flags.add(option);
            return i;
        }
        String value = inline;
        if (value == null) {
            if (i + 1 == args.size()) {
                throw new UsageException("Missing value for option '" + name + "' (" + option.label() + ")");
            }
            value = args.get(++i);
        }
        if (option.kind() == CliOption.Kind.VALUE) {
            values.put(option, value);
        } else {
            int eq = value.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("Value for option '" + name + "' must be KEY=VALUE: '" + value + "'");
            }
            settings.put(value.substring(0, eq), value.substring(eq + 1));
        }
        return i;
    }

    private void checkParameters(CliParameter parameter) {
        int max = parameter == null ? 0 : parameter.max();
        if (parameters.size() > max) {
            throw new UsageException("Unmatched argument: '" + parameters.get(max) + "'");
        }
        if (parameter != null && parameters.size() < parameter.min()) {
            throw new UsageException("Missing required parameter: '" + parameter.label() + "'");
        }
    }

    boolean has(CliOption flag) {
        return flags.contains(flag);
    }

    /** The option's value, or null when it was not given. */
    String value(CliOption option) {
        return values.get(option);
    }

    /** The option's value as a number, or {@code absent} when it was not given. */
    long longValue(CliOption option, long absent) {
        String v = values.get(option);
        if (v == null) {
            return absent;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("Invalid value for option '" + option.longName() + "': '" + v
                    + "' is not a whole number");
        }
    }

    /** The {@code KEY=VALUE} pairs of the command's settings option, in their order. */
    Map<String, String> settings() {
        return settings;
    }

    List<String> parameters() {
        return parameters;
    }

    /** The command's one positional argument. */
    String parameter() {
        return parameters.get(0);
    }

    /** After a usage with commands: the command's name and its arguments; empty when none was given. */
    List<String> rest() {
        return rest;
    }
}
