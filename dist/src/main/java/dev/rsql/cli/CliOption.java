package dev.rsql.cli;

import java.util.List;

/**
 * An option of a command: its names ({@code -D}, {@code --set}), what it takes, and its line in {@code --help}.
 *
 * @param names       the short name first when it has one
 * @param kind        a flag, one value, or {@code KEY=VALUE} pairs that may repeat
 * @param label       what the value is called in {@code --help} ({@code PATH}); null for a flag
 * @param description its text in {@code --help}
 */
record CliOption(List<String> names, Kind kind, String label, String description) {

    enum Kind { FLAG, VALUE, SETTINGS }

    static CliOption flag(String name, String description) {
        return new CliOption(List.of(name), Kind.FLAG, null, description);
    }

    static CliOption value(String name, String label, String description) {
        return new CliOption(List.of(name), Kind.VALUE, label, description);
    }

    boolean named(String name) {
        return names.contains(name);
    }

    /** The longest name, as errors name the option. */
    String longName() {
        return names.get(names.size() - 1);
    }
}
