package dev.rsql.planner.rulefile;

import com.alibaba.fastjson2.JSON;
import dev.rsql.planner.PlanningException;
import dev.rsql.runtime.event.EventPattern;
import dev.rsql.runtime.event.EventPatternException;
import dev.rsql.runtime.text.NearestName;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A rule file ({@code jobs/<bus>.rules.yaml} or {@code .json}), EventBridge's rules without SQL: the bus (a table's
 * connector options, read as the text of each event), the targets (each a table's connector options, written the
 * transformed text), and the rules, each a name, an event pattern, a transform and the targets it sends to. Parsed
 * with the positions of its parts, so that every mistake, a malformed pattern included, is reported at its line and
 * column of the file. JSON files are read as the YAML they also are.
 *
 * <pre>
 * bus:
 *   connector: rocketmq
 *   topic: event_bus
 * targets:
 *   ops: {connector: http, url: 'https://ops.example.com/hooks/risk'}
 * rules:
 *   - name: large_payments
 *     pattern: {type: [order.paid], data: {amount: [{numeric: ['>', 1000]}]}}
 *     transform: {template: 'order ${id} paid ${amount}', variables: {id: $.data.orderId, amount: $.data.amount}}
 *     targets: [ops]
 * </pre>
 */
public record RuleFile(Map<String, String> bus, String busName, Map<String, Map<String, String>> targets,
                       List<Rule> rules) {

    /** A rule: its pattern as JSON text, its transform, its targets, and the line it starts at. */
    public record Rule(String name, String pattern, Transform transform, List<String> targets, int line) {
    }

    /** What a rule sends: the whole event, a part (a JSON path), a constant, or a template over JSON paths. */
    public record Transform(Kind kind, String value, String variables) {
        public enum Kind { EVENT, PATH, CONSTANT, TEMPLATE }

        static final Transform EVENT = new Transform(Kind.EVENT, null, null);
    }

    private static final Set<String> TOP = Set.of("bus", "targets", "rules");
    private static final Set<String> RULE_KEYS = Set.of("name", "pattern", "transform", "targets", "target");
    private static final Set<String> TRANSFORM_KEYS = Set.of("event", "path", "constant", "template", "variables");

    /** Whether a file is a rule file, by its name. */
    public static boolean isRuleFile(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        return n.endsWith(".rules.yaml") || n.endsWith(".rules.yml") || n.endsWith(".rules.json");
    }

    /** @throws PlanningException naming the line and column of the first mistake */
    public static RuleFile parse(String text) {
        Node root;
        try {
            root = new Yaml(new LoaderOptions()).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            throw new PlanningException(at(e.getProblemMark().getLine() + 1, e.getProblemMark().getColumn() + 1,
                    "not a rule file (YAML or JSON): " + e.getProblem()));
        } catch (YAMLException e) {
            throw new PlanningException("not a rule file (YAML or JSON): " + e.getMessage());
        }
        if (root == null) {
            throw new PlanningException("the rule file is empty: it needs bus, targets and rules");
        }
        Map<String, Node> top = mapping(root, "the rule file", TOP);
        for (String k : TOP) {
            if (!top.containsKey(k)) {
                throw new PlanningException(at(root, "the rule file has no '" + k + "'"));
            }
        }
        Map<String, String> bus = options(top.get("bus"), "bus");
        String busName = bus.containsKey("name") ? bus.remove("name") : "bus";
        Map<String, Map<String, String>> targets = new LinkedHashMap<>();
        for (Map.Entry<String, Node> t : mapping(top.get("targets"), "targets", null).entrySet()) {
            targets.put(t.getKey(), options(t.getValue(), "target " + t.getKey()));
        }
        if (targets.isEmpty()) {
            throw new PlanningException(at(top.get("targets"), "'targets' names no target"));
        }
        if (!(top.get("rules") instanceof SequenceNode seq) || seq.getValue().isEmpty()) {
            throw new PlanningException(at(top.get("rules"), "'rules' must be a list of rules"));
        }
        List<Rule> rules = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Node r : seq.getValue()) {
            Rule rule = rule(r, targets.keySet());
            if (!names.add(rule.name())) {
                throw new PlanningException(at(r, "a second rule named '" + rule.name() + "'"));
            }
            rules.add(rule);
        }
        return new RuleFile(bus, busName, targets, rules);
    }

    private static Rule rule(Node node, Set<String> targetNames) {
        Map<String, Node> m = mapping(node, "a rule", RULE_KEYS);
        String name = m.containsKey("name") ? scalar(m.get("name"), "name") : null;
        if (name == null || name.isBlank()) {
            throw new PlanningException(at(node, "a rule without a name"));
        }
        String what = "rule '" + name + "'";
        Node patternNode = m.get("pattern");
        if (patternNode == null) {
            throw new PlanningException(at(node, what + " has no pattern"));
        }
        String pattern = patternNode instanceof ScalarNode s ? s.getValue() : json(patternNode);
        try {
            EventPattern.compile(pattern);
        } catch (EventPatternException e) {
            // a pattern written as a string: the place inside it; written as YAML: the pattern's own place (the
            // detail names the operator or field at fault)
            int line = patternNode.getStartMark().getLine() + 1;
            int column = patternNode.getStartMark().getColumn() + 1;
            String inside = patternNode instanceof ScalarNode s && e.line() == 1
                    ? at(line, column + (s.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN ? 0 : 1) + e.column() - 1,
                    "") : at(line, column, "");
            throw new PlanningException(inside + what + ": malformed pattern: " + e.detail());
        }
        Node targetsNode = m.containsKey("targets") ? m.get("targets") : m.get("target");
        if (targetsNode == null) {
            throw new PlanningException(at(node, what + " has no targets"));
        }
        List<String> targets = new ArrayList<>();
        List<Node> items = targetsNode instanceof SequenceNode s ? s.getValue() : List.of(targetsNode);
        for (Node t : items) {
            String target = scalar(t, what + ": target");
            if (!targetNames.contains(target)) {
                String near = NearestName.of(target, targetNames);
                throw new PlanningException(at(t, what + ": no target '" + target + "'"
                        + (near == null ? "; targets: " + targetNames : "; did you mean '" + near + "'?")));
            }
            targets.add(target);
        }
        return new Rule(name, pattern, transform(m.get("transform"), what), targets,
                node.getStartMark().getLine() + 1);
    }

    private static Transform transform(Node node, String what) {
        if (node == null) {
            return Transform.EVENT;
        }
        if (node instanceof ScalarNode s && s.getValue().equals("event")) {
            return Transform.EVENT;
        }
        Map<String, Node> m = mapping(node, what + ": transform", TRANSFORM_KEYS);
        if (m.containsKey("template")) {
            Node vars = m.get("variables");
            String variables = vars == null ? "{}" : vars instanceof ScalarNode s ? s.getValue() : json(vars);
            return new Transform(Transform.Kind.TEMPLATE, scalar(m.get("template"), "template"), variables);
        }
        if (m.containsKey("path")) {
            String path = scalar(m.get("path"), "path");
            if (!path.startsWith("$")) {
                throw new PlanningException(at(m.get("path"), what + ": a path starts with $, e.g. $.data.id"));
            }
            return new Transform(Transform.Kind.PATH, path, null);
        }
        if (m.containsKey("constant")) {
            Node c = m.get("constant");
            return new Transform(Transform.Kind.CONSTANT, c instanceof ScalarNode s ? s.getValue() : json(c), null);
        }
        if (m.containsKey("event")) {
            return Transform.EVENT;
        }
        throw new PlanningException(at(node, what + ": a transform is one of event, path, constant or template"));
    }

    /** A mapping's entries by key; with {@code known}, any other key is a mistake. */
    private static Map<String, Node> mapping(Node node, String what, Set<String> known) {
        if (!(node instanceof MappingNode map)) {
            throw new PlanningException(at(node, what + " must be a mapping (key: value)"));
        }
        Map<String, Node> out = new LinkedHashMap<>();
        for (NodeTuple t : map.getValue()) {
            String key = scalar(t.getKeyNode(), what + ": key");
            if (known != null && !known.contains(key)) {
                String near = NearestName.of(key, known);
                throw new PlanningException(at(t.getKeyNode(), what + ": unknown key '" + key + "'"
                        + (near == null ? "; known: " + known : "; did you mean '" + near + "'?")));
            }
            out.put(key, t.getValueNode());
        }
        return out;
    }

    /** A table's options: scalar values only, as text. */
    private static Map<String, String> options(Node node, String what) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Node> e : mapping(node, what, null).entrySet()) {
            out.put(e.getKey(), scalar(e.getValue(), what + ": " + e.getKey()));
        }
        if (!out.containsKey("connector") && !out.containsKey("type")) {
            throw new PlanningException(at(node, what + " has no connector"));
        }
        return out;
    }

    private static String scalar(Node node, String what) {
        if (!(node instanceof ScalarNode s)) {
            throw new PlanningException(at(node, what + " must be a single value"));
        }
        return s.getValue();
    }

    /** A YAML subtree as JSON text: scalars typed as YAML resolved them. */
    private static String json(Node node) {
        StringBuilder sb = new StringBuilder();
        json(node, sb);
        return sb.toString();
    }

    private static void json(Node node, StringBuilder sb) {
        if (node instanceof MappingNode m) {
            sb.append('{');
            for (int i = 0; i < m.getValue().size(); i++) {
                NodeTuple t = m.getValue().get(i);
                sb.append(i == 0 ? "" : ",").append(JSON.toJSONString(((ScalarNode) t.getKeyNode()).getValue()))
                        .append(':');
                json(t.getValueNode(), sb);
            }
            sb.append('}');
        } else if (node instanceof SequenceNode s) {
            sb.append('[');
            for (int i = 0; i < s.getValue().size(); i++) {
                sb.append(i == 0 ? "" : ",");
                json(s.getValue().get(i), sb);
            }
            sb.append(']');
        } else {
            ScalarNode s = (ScalarNode) node;
            Tag tag = s.getTag();
            if (tag.equals(Tag.INT) || tag.equals(Tag.FLOAT)) {
                sb.append(s.getValue());
            } else if (tag.equals(Tag.BOOL)) {
                // YAML 1.1 also spells booleans yes/no/on/off
                sb.append(Set.of("true", "yes", "y", "on").contains(s.getValue().toLowerCase(Locale.ROOT)));
            } else if (tag.equals(Tag.NULL)) {
                sb.append("null");
            } else {
                sb.append(JSON.toJSONString(s.getValue()));
            }
        }
    }

    private static String at(Node node, String message) {
        return at(node.getStartMark().getLine() + 1, node.getStartMark().getColumn() + 1, message);
    }

    private static String at(int line, int column, String message) {
        return "line " + line + ", column " + column + ": " + message;
    }
}
