package dev.rsql.planner.rulefile;

import java.util.Locale;
import java.util.Map;

/**
 * The SQL script a rule file stands for, which is what runs: the bus as a table of one column {@code event} (each
 * event's text, format raw), each target as a table of one column {@code body} (the transformed text, format raw),
 * and per rule and target one {@code INSERT ... WHERE EVENT_MATCHES(event, pattern)}. The patterns of all rules then
 * run as one index per event ({@code EventPatternSet}) and a rule with several targets tests its pattern once.
 * {@code explain} prints this script.
 */
public final class RuleFileScript {

    private RuleFileScript() {
    }

    /** The script of a rule file's text; {@code fileName} goes into its comments. */
    public static String sql(String fileName, String text) {
        return sql(fileName, RuleFile.parse(text));
    }

    static String sql(String fileName, RuleFile file) {
        StringBuilder sb = new StringBuilder();
        sb.append("-- generated from ").append(fileName).append(": one read of the bus, ").append(file.rules().size())
                .append(" rules\n");
        sb.append("CREATE TABLE ").append(id(file.busName())).append(" (`event` STRING)");
        with(sb, file.bus());
        for (Map.Entry<String, Map<String, String>> t : file.targets().entrySet()) {
            sb.append("CREATE TABLE ").append(id(t.getKey())).append(" (`body` STRING)");
            with(sb, t.getValue());
        }
        for (RuleFile.Rule rule : file.rules()) {
            sb.append("\n-- rule '").append(rule.name().replace('\n', ' ')).append("' (").append(fileName)
                    .append(" line ").append(rule.line()).append(")\n");
            for (String target : rule.targets()) {
                sb.append("INSERT INTO ").append(id(target)).append("\nSELECT ").append(transform(rule.transform()))
                        .append("\nFROM ").append(id(file.busName())).append("\nWHERE EVENT_MATCHES(`event`, ")
                        .append(literal(rule.pattern())).append(");\n");
            }
        }
        return sb.toString();
    }

    private static String transform(RuleFile.Transform t) {
        return switch (t.kind()) {
            case EVENT -> "`event`";
            case PATH -> "JSON_VALUE(`event`, " + literal(t.value()) + ")";
            case CONSTANT -> literal(t.value());
            case TEMPLATE -> "EVENT_TEMPLATE(`event`, " + literal(t.variables()) + ", " + literal(t.value()) + ")";
        };
    }

    /** The table's options, read and written as text (format raw, whatever the file says). */
    private static void with(StringBuilder sb, Map<String, String> options) {
        sb.append(" WITH (");
        boolean first = true;
        for (Map.Entry<String, String> o : options.entrySet()) {
            String key = o.getKey().toLowerCase(Locale.ROOT);
            if (key.equals("format") || key.equals("value.format")) {
                continue;
            }
            sb.append(first ? "" : ", ").append(literal(o.getKey())).append(" = ").append(literal(o.getValue()));
            first = false;
        }
        sb.append(first ? "" : ", ").append("'format' = 'raw');\n");
    }

    private static String id(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    private static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
