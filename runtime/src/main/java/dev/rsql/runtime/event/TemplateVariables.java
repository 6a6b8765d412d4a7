package dev.rsql.runtime.event;

import dev.rsql.runtime.event.PatternNode.Kind;
import dev.rsql.runtime.event.PatternNode.Member;
import dev.rsql.runtime.format.json.JsonValueText;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The variables of an EventBridge template transform: a JSON object of names to definite JSON paths
 * ({@code "$.data.user"}) or constants (any other string). {@link #render} puts each variable's value in place of
 * {@code ${name}} in a template: strings as they are, numbers, booleans and {@code null} as JSON writes them, objects
 * and arrays as JSON; a path that finds nothing leaves {@code ${name}} as it is.
 */
public final class TemplateVariables {

    private final Map<String, Object> variables;

    private TemplateVariables(Map<String, Object> variables) {
        this.variables = variables;
    }

    /** @throws EventPatternException naming the line and column of a mistake in {@code json} */
    public static TemplateVariables compile(String json) {
        PatternNode root = PatternJsonReader.read(json);
        if (root.kind() != Kind.OBJECT) {
            throw new EventPatternException(json, root.offset(),
                    "template variables are a JSON object of names to paths or constants, e.g. "
                            + "{\"user\": \"$.data.user\"}; found " + root.describe());
        }
        Map<String, Object> variables = new LinkedHashMap<>();
        for (Member m : root.members()) {
            PatternNode v = m.value();
            if (v.kind() != Kind.STRING) {
                throw new EventPatternException(json, v.offset(), "variable \"" + m.key()
                        + "\" is a JSON path or a constant string, found " + v.describe());
            }
            String s = (String) v.value();
            if (s.startsWith("$")) {
                try {
                    variables.put(m.key(), path(s));
                } catch (IllegalArgumentException e) {
                    throw new EventPatternException(json, v.offset(), "variable \"" + m.key() + "\": "
                            + e.getMessage());
                }
            } else {
                variables.put(m.key(), s);
            }
        }
        return new TemplateVariables(variables);
    }

    /** The template with every {@code ${name}} of a variable that has a value replaced by it. */
    public String render(Object event, String template) {
        StringBuilder out = new StringBuilder(template.length() + 32);
        int i = 0;
        while (i < template.length()) {
            int open = template.indexOf("${", i);
            int close = open < 0 ? -1 : template.indexOf('}', open + 2);
            if (close < 0) {
                out.append(template, i, template.length());
                break;
            }
            out.append(template, i, open);
            String name = template.substring(open + 2, close);
            Object v = variables.get(name);
            String value = v instanceof String ? (String) v : v == null ? null : text(find(event, (Object[]) v));
            out.append(value != null ? value : template.substring(open, close + 1));
            i = close + 1;
        }
        return out.toString();
    }

    private static final Object NOTHING = new Object();

    /** The value at a path of keys (String) and indexes (Integer), or {@link #NOTHING}. */
    private static Object find(Object event, Object[] path) {
        Object v = event;
        for (Object step : path) {
            if (step instanceof String && v instanceof Map && ((Map<?, ?>) v).containsKey(step)) {
                v = ((Map<?, ?>) v).get(step);
            } else if (step instanceof Integer && v instanceof List && (Integer) step < ((List<?>) v).size()) {
                v = ((List<?>) v).get((Integer) step);
            } else {
                return NOTHING;
            }
        }
        return v;
    }

    /** A variable's value as the template shows it: JSON null as {@code null}; null when the path found nothing. */
    private static String text(Object v) {
        if (v == NOTHING || v == EventPattern.INVALID) {
            return null;
        }
        return v == null ? "null" : JsonValueText.of(v);
    }

    /** A definite path: {@code $}, then {@code .name}, {@code ['name']} or {@code [n]} steps. */
    static Object[] path(String p) {
        List<Object> steps = new ArrayList<>();
        int i = 1;
        while (i < p.length()) {
            char c = p.charAt(i);
            if (c == '.') {
                int end = i + 1;
                while (end < p.length() && p.charAt(end) != '.' && p.charAt(end) != '[') {
                    end++;
                }
                if (end == i + 1) {
                    throw new IllegalArgumentException("\"" + p + "\" has an empty name after '.'");
                }
                steps.add(p.substring(i + 1, end));
                i = end;
            } else if (c == '[' && p.startsWith("['", i)) {
                int end = p.indexOf("']", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("\"" + p + "\" has an unclosed ['");
                }
                steps.add(p.substring(i + 2, end));
                i = end + 2;
            } else if (c == '[') {
                int end = p.indexOf(']', i);
                String index = end < 0 ? "" : p.substring(i + 1, end);
                if (!index.matches("[0-9]{1,9}")) {
                    throw new IllegalArgumentException("\"" + p + "\" is not a definite path: use .name, ['name']"
                            + " or [n] steps");
                }
                steps.add(Integer.parseInt(index));
                i = end + 1;
            } else {
                throw new IllegalArgumentException("\"" + p + "\" is not a definite path: use .name, ['name'] or [n]"
                        + " steps");
            }
        }
        return steps.toArray();
    }
}
