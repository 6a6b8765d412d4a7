package dev.rsql.runtime.config;

import java.util.function.Function;

/**
 * Replaces {@code ${name}} and {@code ${name:default}} in a string. Used for conf/ files (environment variables) and
 * for WITH values (engine settings, SET values, environment variables). {@code $${x}} is a literal {@code ${x}}.
 */
public final class Placeholders {

    private Placeholders() {
    }

    /**
     * @param lookup returns the value of a name, or null when unknown
     * @throws ConfigException naming the placeholder when it is unknown and has no default
     */
    public static String resolve(String text, Function<String, String> lookup) {
        if (text == null || text.indexOf("${") < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '$' && text.startsWith("$${", i)) {
                int end = text.indexOf('}', i + 3);
                if (end < 0) {
                    out.append(text, i, text.length());
                    break;
                }
                out.append(text, i + 1, end + 1);
                i = end + 1;
            } else if (c == '$' && text.startsWith("${", i)) {
                int end = text.indexOf('}', i + 2);
                if (end < 0) {
                    throw new ConfigException("unclosed placeholder: no '}' after the '${' at character " + (i + 1));
                }
                String body = text.substring(i + 2, end);
                int colon = body.indexOf(':');
                String name = colon < 0 ? body : body.substring(0, colon);
                String value = lookup.apply(name.trim());
                if (value == null) {
                    if (colon < 0) {
                        throw new ConfigException("unknown placeholder ${" + name + "}: set it in conf/, with SET, or as an environment variable");
                    }
                    value = body.substring(colon + 1);
                }
                out.append(value);
                i = end + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
