package dev.rsql.cli.shell;

import dev.rsql.planner.PlannedJob;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.PlanningException;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.planner.calcite.TypeConverter;
import dev.rsql.planner.catalog.CatalogFunction;
import dev.rsql.planner.catalog.CatalogTable;
import dev.rsql.planner.catalog.CatalogView;
import dev.rsql.planner.catalog.ScriptCatalog;
import dev.rsql.planner.catalog.TableColumn;
import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.sql.parser.RsqlParseException;
import dev.rsql.sql.parser.RsqlParser;
import dev.rsql.sql.parser.ddl.SqlCreateFunction;
import dev.rsql.sql.parser.ddl.SqlCreateTable;
import dev.rsql.sql.parser.ddl.SqlCreateView;
import dev.rsql.sql.parser.ddl.SqlReset;
import dev.rsql.sql.parser.ddl.SqlSet;
import dev.rsql.sql.parser.dml.SqlRichInsert;
import dev.rsql.sql.parser.dml.SqlStatementSet;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.jline.terminal.Terminal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements of {@code rsql sql}: DDL and SET accumulate in the session ({@link ShellSession}), a SELECT or an
 * INSERT runs at once in this process ({@link LiveQuery}) and a SELECT's rows are shown as they change, SHOW, DESCRIBE,
 * EXPLAIN, HELP and QUIT answer from the session. A statement that fails prints one {@code [ERROR]} line with its
 * position and leaves the session as it was.
 */
public final class SqlShell {

    private static final Logger LOG = LoggerFactory.getLogger(SqlShell.class);
    private static final String JOB_NAME = "sql-shell";
    private static final Pattern QUIT = Pattern.compile("(?i)(quit|exit)");
    private static final Pattern HELP = Pattern.compile("(?i)help");
    private static final Pattern SHOW = Pattern.compile("(?i)show\\s+(tables|views|functions)");
    private static final Pattern DESCRIBE = Pattern.compile("(?i)(?:describe|desc)\\s+(`[^`]+`|\\S+)");
    private static final Pattern EXPLAIN = Pattern.compile("(?is)explain\\s+(?:plan\\s+for\\s+)?(?=\\S)");

    private static final String HELP_TEXT = String.join("\n",
            "Statements end with ';' and may span lines.",
            "  CREATE TABLE | VIEW | FUNCTION ...   declare, for the statements that follow",
            "  SELECT ...                           run now: rows are shown as they change, until Ctrl-C or the"
                    + " end of the input",
            "  INSERT INTO ...                      run now, until Ctrl-C or the end of the input",
            "  SHOW TABLES | VIEWS | FUNCTIONS      what the session declared",
            "  DESCRIBE t                           the columns of a table or view",
            "  EXPLAIN SELECT ... | INSERT ...      the plan, as 'rsql explain' prints it",
            "  SET                                  the session's settings",
            "  SET 'key' = 'value'                  a setting, e.g. SET '" + ResultMode.SETTING + "' = 'tableau'"
                    + " (table, changelog, tableau)",
            "  RESET ['key']                        remove one setting, or all",
            "  HELP | QUIT | EXIT",
            "Ctrl-C ends a running query, not the shell; Ctrl-D ends the shell.");

    private final Map<String, String> config;
    private final ClassLoader classLoader;
    private final PrintWriter out;
    private final Terminal terminal;
    private final long maxRows;
    private final ShellSession session = new ShellSession();
    private volatile LiveQuery running;
    private int failures;

    /**
     * @param config   engine settings (conf/ and -D)
     * @param terminal the interactive terminal, or null when reading a script or stdin
     * @param maxRows  a live query ends after this many changes; 0: only at Ctrl-C or the end of its input
     */
    public SqlShell(Map<String, String> config, ClassLoader classLoader, PrintWriter out, Terminal terminal,
                    long maxRows) {
        this.config = config;
        this.classLoader = classLoader;
        this.out = out;
        this.terminal = terminal;
        this.maxRows = maxRows;
    }

    /** How many statements failed. */
    public int failures() {
        return failures;
    }

    /** Ctrl-C: ends the running query; false when none runs. */
    public boolean interrupt() {
        LiveQuery query = running;
        if (query == null) {
            return false;
        }
        query.cancel("stopped by Ctrl-C");
        return true;
    }

    /** Runs one statement; returns false when it asks to end the shell. */
    boolean execute(Statement statement) {
        String text = statement.text();
        try {
            if (QUIT.matcher(text).matches()) {
                return false;
            }
            Matcher m;
            if (HELP.matcher(text).matches()) {
                out.println(HELP_TEXT);
            } else if ((m = SHOW.matcher(text)).matches()) {
                show(m.group(1).toLowerCase(Locale.ROOT));
            } else if ((m = DESCRIBE.matcher(text)).matches()) {
                describe(m.group(1).replace("`", ""));
            } else if ((m = EXPLAIN.matcher(text)).lookingAt()) {
                Statement query = statement.from(m.end());
                out.print(planner().plan(JOB_NAME, session.pieces(query.positioned())).explain());
            } else {
                run(statement, RsqlParser.parseScript(statement.positioned()));
            }
        } catch (RsqlParseException | PlanningException | ConfigException | IllegalArgumentException e) {
            error(e.getMessage());
        } catch (LiveQuery.QueryFailedException e) {
            error("the query failed: " + e.getMessage());
            LOG.error("the shell's query failed", e.getCause());
        } catch (Exception e) {
            error(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
            LOG.error("statement failed: {}", text, e);
        }
        out.flush();
        return true;
    }

    private void run(Statement statement, List<SqlNode> nodes) throws Exception {
        if (nodes.isEmpty()) {
            return;
        }
        SqlNode node = nodes.get(0);
        if (node instanceof SqlSet) {
            SqlSet set = (SqlSet) node;
            if (set.getKey() == null) {
                List<List<String>> rows = new ArrayList<>();
                session.settings().forEach((k, v) -> rows.add(List.of(k, v)));
                out.print(TableText.withCount(List.of("key", "value"), rows));
            } else {
                if (set.getKey().equals(ResultMode.SETTING)) {
                    ResultMode.of(set.getValue());
                }
                session.set(set.getKey(), set.getValue());
                out.println("[INFO] Session property has been set.");
            }
        } else if (node instanceof SqlReset) {
            session.reset(((SqlReset) node).getKey());
            out.println("[INFO] Session property has been reset.");
        } else if (node instanceof SqlCreateTable || node instanceof SqlCreateView || node instanceof SqlCreateFunction) {
            planner().declare(session.pieces(statement.positioned()));
            session.declare(statement.text());
            String kind = node instanceof SqlCreateTable ? "Table" : node instanceof SqlCreateView ? "View" : "Function";
            out.println("[INFO] " + kind + " has been created.");
        } else if (node instanceof SqlRichInsert || node instanceof SqlStatementSet) {
            PlannedJob job = planner().plan(JOB_NAME, session.pieces(statement.positioned()));
            warn(job);
            out.println("[INFO] Running the INSERT until its input ends or Ctrl-C ...");
            out.flush();
            String why = start(new LiveQuery(job.graph(), config, classLoader), null, null);
            out.println("[INFO] The INSERT ended: " + why + ".");
        } else if (node.getKind().belongsTo(SqlKind.QUERY)) {
            try (ResultChannel channel = ResultChannel.open()) {
                PlannedJob job = planner().withSelectSink(Map.of("connector", ResultSinkFactory.IDENTIFIER,
                        ResultSinkFactory.RESULT_ID, channel.id())).plan(JOB_NAME, session.pieces(statement.positioned()));
                warn(job);
                start(new LiveQuery(job.graph(), config, classLoader), channel, view());
            }
        } else {
            error("a " + node.getKind().name().toLowerCase(Locale.ROOT) + " statement is not supported here; HELP lists"
                    + " what is");
        }
    }

    private String start(LiveQuery query, ResultChannel channel, ResultView view) throws Exception {
        running = query;
        try {
            return query.run(channel, view, maxRows);
        } finally {
            running = null;
        }
    }

    private ResultView view() {
        String mode = session.settings().get(ResultMode.SETTING);
        switch (mode == null ? ResultMode.defaultFor(terminal != null) : ResultMode.of(mode)) {
            case CHANGELOG:
                return new ChangelogView(out);
            case TABLEAU:
                return new TableauView(out);
            default:
                return new TableView(out, terminal);
        }
    }

    private void show(String what) {
        ScriptCatalog catalog = planner().declare(session.pieces());
        List<List<String>> rows = new ArrayList<>();
        String header;
        switch (what) {
            case "tables":
                header = "table name";
                catalog.tables().forEach(t -> rows.add(List.of(t.name())));
                catalog.views().forEach(v -> rows.add(List.of(v.name())));
                break;
            case "views":
                header = "view name";
                catalog.views().forEach(v -> rows.add(List.of(v.name())));
                break;
            default:
                header = "function name";
                for (CatalogFunction f : catalog.functions()) {
                    rows.add(List.of(f.name()));
                }
        }
        rows.sort((a, b) -> a.get(0).compareToIgnoreCase(b.get(0)));
        out.print(TableText.withCount(List.of(header), rows));
    }

    /** Flink's DESCRIBE columns: name, type, null, key, extras (computed or metadata), watermark. */
    private void describe(String name) {
        ScriptCatalog declared = planner().declare(session.pieces());
        CatalogTable table = declared.table(name);
        CatalogView view = declared.view(name);
        if (table == null && view == null) {
            throw new PlanningException("table or view " + name + " is not declared in this session (SHOW TABLES lists"
                    + " them)");
        }
        ScriptCatalog withQuery = planner().declare(session.pieces("SELECT * FROM `" + name + "`"));
        CatalogTable result = withQuery.tables().stream().filter(t -> t.name().startsWith("$select_")).findFirst()
                .orElseThrow();
        List<List<String>> rows = new ArrayList<>();
        for (TableColumn c : result.columns()) {
            String type = TypeConverter.toDataType(c.type()).toString();
            boolean notNull = type.endsWith(" NOT NULL");
            String key = "";
            String extras = "";
            String watermark = "";
            TableColumn declaredColumn = table == null ? null : column(table, c.name());
            if (declaredColumn != null) {
                key = table.primaryKey().stream().anyMatch(k -> k.equalsIgnoreCase(c.name())) ? "PRI" : "";
                if (declaredColumn.isComputed()) {
                    extras = "AS " + RsqlParser.unparse(declaredColumn.expression());
                } else if (declaredColumn.kind() == TableColumn.Kind.METADATA) {
                    extras = "METADATA" + (declaredColumn.metadataKey() == null ? ""
                            : " FROM '" + declaredColumn.metadataKey() + "'") + (declaredColumn.isVirtual() ? " VIRTUAL" : "");
                }
                if (table.watermark() != null && table.watermark().column().equalsIgnoreCase(c.name())) {
                    watermark = RsqlParser.unparse(table.watermark().strategy());
                }
            }
            rows.add(List.of(c.name(), notNull ? type.substring(0, type.length() - " NOT NULL".length()) : type,
                    notNull ? "FALSE" : "TRUE", key, extras, watermark));
        }
        out.print(TableText.withCount(List.of("name", "type", "null", "key", "extras", "watermark"), rows));
    }

    private static TableColumn column(CatalogTable table, String name) {
        return table.columns().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst().orElse(null);
    }

    private ScriptPlanner planner() {
        return new ScriptPlanner(new PlannerContext(new Options(config), classLoader, System::getenv));
    }

    private void warn(PlannedJob job) {
        job.warnings().forEach(w -> out.println("[WARN] " + w));
    }

    private void error(String message) {
        failures++;
        out.println("[ERROR] " + message);
    }
}
