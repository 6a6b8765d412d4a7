package dev.rsql.cli.shell;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a shell session has accumulated: its CREATE TABLE / VIEW / FUNCTION statements (as typed, each checked when
 * it was added) and its SET values. A statement is planned as the script these make plus itself.
 */
final class ShellSession {

    private final List<String> declarations = new ArrayList<>();
    private final Map<String, String> settings = new LinkedHashMap<>();

    /** The session as script pieces (its settings, then its declarations) followed by {@code more}. */
    List<String> pieces(String... more) {
        List<String> pieces = new ArrayList<>();
        settings.forEach((k, v) -> pieces.add("SET " + quote(k) + " = " + quote(v)));
        pieces.addAll(declarations);
        Collections.addAll(pieces, more);
        return pieces;
    }

    void declare(String statement) {
        declarations.add(statement);
    }

    void set(String key, String value) {
        settings.put(key, value);
    }

    /** Removes one setting, or all of them when {@code key} is null; false when there was none. */
    boolean reset(String key) {
        if (key == null) {
            boolean any = !settings.isEmpty();
            settings.clear();
            return any;
        }
        return settings.remove(key) != null;
    }

    Map<String, String> settings() {
        return Collections.unmodifiableMap(settings);
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
