package dev.rsql.planner.functions;

import dev.rsql.planner.functions.FunctionDoc.Category;
import dev.rsql.planner.functions.FunctionDoc.Example;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * Generates {@code docs/functions.md} from the function registry ({@link BuiltinFunctions#docs()}). Run
 * {@code main} (with the file as argument) after changing a function; a test fails while the committed file is stale.
 */
public final class FunctionDocs {

    private FunctionDocs() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Paths.get(args.length > 0 ? args[0] : "docs/functions.md");
        Files.writeString(out, render(), StandardCharsets.UTF_8);
        System.out.println("wrote " + out.toAbsolutePath());
    }

    public static String render() {
        List<FunctionDoc> docs = BuiltinFunctions.docs();
        StringBuilder sb = new StringBuilder();
        sb.append("# Built-in functions\n\n");
        sb.append("<!-- Generated from the function registry (BuiltinFunctions) by FunctionDocs; do not edit. "
                + "Regenerate: mvn -q -pl sql-planner test -Dtest=FunctionDocsTest -Drsql.docs.write=true -->\n\n");
        sb.append("Functions of the Blink dialect (Blink 2.x/3.x with Flink's forms where they differ). Every example "
                + "below is run by the tests (results shown as `CAST(... AS VARCHAR)` prints them). NULL in gives "
                + "NULL out unless a description says otherwise. Functions that convert between epoch seconds or "
                + "milliseconds and TIMESTAMP values use the job's time zone: `table.local-time-zone` (Flink) or "
                + "`blink.job.timeZone` (Blink), set with `SET` or in `conf/`, default the system's zone (as in Flink); "
                + "a TIMESTAMP is a "
                + "wall-clock time in that zone. \"engine\" marks functions implemented by this engine; \"Calcite\" "
                + "those Calcite already implements with the same semantics. A function that fails on a record "
                + "reports the function, its arguments and the record's position, and the source table's "
                + "error policy (`scan.error-policy` = fail | skip) applies. User functions: see `docs/udf.md`.\n\n");
        sb.append("## Contents\n\n");
        for (Category c : Category.values()) {
            sb.append("- [").append(c.title()).append("](#").append(anchor(c.title())).append("): ");
            boolean first = true;
            for (FunctionDoc d : docs) {
                if (d.category() == c) {
                    sb.append(first ? "" : ", ").append('`').append(d.name()).append('`');
                    first = false;
                }
            }
            sb.append('\n');
        }
        for (Category c : Category.values()) {
            sb.append("\n## ").append(c.title()).append("\n");
            for (FunctionDoc d : docs) {
                if (d.category() != c) {
                    continue;
                }
                sb.append("\n### ").append(d.name()).append("\n\n");
                for (String s : d.signatures()) {
                    sb.append("    ").append(s).append('\n');
                }
                sb.append('\n').append(d.description()).append('\n');
                if (d.blinkNote() != null) {
                    sb.append("\n*Blink:* ").append(d.blinkNote()).append('\n');
                }
                if (!d.examples().isEmpty()) {
                    sb.append("\n| example | result |\n|---|---|\n");
                    for (Example e : d.examples()) {
                        sb.append("| `").append(cell(c == Category.TABLE ? lateral(e.sql()) : e.sql()))
                                .append("` | ").append(e.checked() ? resultCell(e.result()) : "e.g. " + resultCell(e.result()))
                                .append(" |\n");
                    }
                }
                sb.append("\n*Implemented by:* ").append(d.implementation()).append('\n');
            }
        }
        return sb.toString();
    }

    /** {@code f(x) AS T(a)} as {@code LATERAL TABLE(f(x)) AS T(a)}. */
    static String lateral(String callWithAlias) {
        int as = callWithAlias.toUpperCase(java.util.Locale.ROOT).lastIndexOf(" AS ");
        return "LATERAL TABLE(" + callWithAlias.substring(0, as) + ")" + callWithAlias.substring(as);
    }

    private static String resultCell(String result) {
        if (result.equals("NULL")) {
            return "NULL";
        }
        if (result.isEmpty()) {
            return "'' (empty)";
        }
        return "`" + cell(result).replace("\n", "`<br>`") + "`";
    }

    private static String cell(String s) {
        return s.replace("|", "\\|");
    }

    private static String anchor(String title) {
        return title.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9 -]", "").replace(' ', '-');
    }
}
