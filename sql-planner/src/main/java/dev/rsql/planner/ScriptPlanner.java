package dev.rsql.planner;

import dev.rsql.planner.calcite.ConnectorTable;
import dev.rsql.planner.calcite.PlannerSession;
import dev.rsql.planner.calcite.QueryTable;
import dev.rsql.planner.calcite.SqlDeepCopier;
import dev.rsql.planner.catalog.CatalogFunction;
import dev.rsql.planner.catalog.CatalogTable;
import dev.rsql.planner.catalog.CatalogView;
import dev.rsql.planner.catalog.DdlConverter;
import dev.rsql.planner.catalog.ScriptCatalog;
import dev.rsql.planner.catalog.TableColumn;
import dev.rsql.planner.catalog.WatermarkSpec;
import dev.rsql.planner.codegen.CalcCompiler;
import dev.rsql.planner.codegen.CompiledCodeCache;
import dev.rsql.planner.codegen.RuleSetPlanner;
import dev.rsql.planner.functions.udf.UserFunctions;
import dev.rsql.planner.physical.OverWindows;
import dev.rsql.planner.translate.ConnectorChangelogs;
import dev.rsql.planner.translate.ConstantExpressions;
import dev.rsql.planner.translate.GraphTranslator;
import dev.rsql.planner.translate.PlanOptimizer;
import dev.rsql.planner.translate.SubQueryRewriter;
import dev.rsql.planner.translate.AggregationSettings;
import dev.rsql.planner.translate.SplitAggregateRule;
import dev.rsql.planner.translate.StreamSettings;
import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineSettings;
import dev.rsql.runtime.exec.StartupTrace;
import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.sql.parser.RsqlParser;
import dev.rsql.sql.parser.ddl.SqlCreateFunction;
import dev.rsql.sql.parser.ddl.SqlCreateTable;
import dev.rsql.sql.parser.ddl.SqlCreateView;
import dev.rsql.sql.parser.ddl.SqlReset;
import dev.rsql.sql.parser.ddl.SqlSet;
import dev.rsql.sql.parser.dml.SqlEmit;
import dev.rsql.sql.parser.dml.SqlEmitStrategy;
import dev.rsql.sql.parser.dml.SqlRichInsert;
import dev.rsql.sql.parser.dml.SqlStatementSet;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.runtime.CalciteException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidatorException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Plans a whole script into one operator graph: DDL builds the catalog, every INSERT (and every INSERT of a
 * statement set) is validated, converted, optimised and translated, and the calc code of the job is compiled.
 */
public final class ScriptPlanner {

    /** Prefix of the hidden table holding the stored columns of a table with computed columns. */
    private static final String STORED_PREFIX = "$stored$";
    /** SET or conf/ setting: false tests each constant LIKE / REGEXP on its own instead of per column together. */
    static final String MULTI_PATTERN = "table.optimizer.multi-pattern.enabled";
    /** SET or conf/ setting: false evaluates a costly conjunct several INSERTs over a source test once per INSERT. */
    static final String SHARED_PREDICATES = "table.optimizer.shared-predicates.enabled";
    /** SET or conf/ setting: false decodes every column of a source, also those no query reads. */
    static final String PROJECTION_PUSHDOWN = "table.optimizer.projection-pushdown.enabled";
    /** SET or conf/ setting: false runs each INSERT's filter on its own instead of the source's rules as one set. */
    static final String RULE_SET = "table.optimizer.rule-set.enabled";
    /** SET or conf/ setting: false compiles the generated code at every start instead of keeping it under state.dir. */
    static final String CODE_CACHE = "table.generated-code.cache.enabled";
    /** The code cache's directory under {@code state.dir}; a job's state directory is named after the job. */
    private static final String CODE_CACHE_DIR = ".compiled-code";

    private final PlannerContext context;
    /** Options of the sink table a bare SELECT writes to; null: a {@code print} sink (see {@link PrintedSelect}). */
    private final Map<String, String> selectSink;

    public ScriptPlanner(PlannerContext context) {
        this(context, null);
    }

    private ScriptPlanner(PlannerContext context, Map<String, String> selectSink) {
        this.context = context;
        this.selectSink = selectSink;
    }

    /**
     * A planner whose bare SELECTs write to a table with these options (they include {@code connector}), e.g. the
     * SQL shell's result sink, instead of printing.
     */
    public ScriptPlanner withSelectSink(Map<String, String> options) {
        return new ScriptPlanner(context, Map.copyOf(options));
    }

    /** Parses, validates and translates a script; the graph is ready to run. */
    public PlannedJob plan(String jobName, String script) {
        List<SqlNode> statements = RsqlParser.parseScript(script);
        StartupTrace.mark("planner: script parsed");
        return new Planning(jobName).run(statements);
    }

    /** A planning run whose statements come one at a time and whose graph the caller builds ({@link EmbeddedPlanner}). */
    Planning embedded(String jobName) {
        return new Planning(jobName);
    }

    /**
     * As {@link #plan(String, String)} for a script given as pieces parsed one by one (a shell's statements): an
     * error's line and column are those within its piece.
     */
    public PlannedJob plan(String jobName, List<String> pieces) {
        return new Planning(jobName).run(parsePieces(pieces));
    }

    /**
     * Runs the SET and DDL statements of the pieces (parsed one by one, as above), validates their queries and asks
     * each table's connector whether it accepts the table (as a source or a sink), without translating anything;
     * returns what they declare. A bare SELECT's result table is in the catalog under a name
     * starting with {@code $select_}, with the query's column types.
     */
    public ScriptCatalog declare(List<String> pieces) {
        Planning planning = new Planning("declare");
        planning.declare(parsePieces(pieces));
        ConnectorValidation validation = new ConnectorValidation("declare", new Options(planning.allSettings()),
                context.classLoader(), planning.catalog);
        planning.catalog.tables().forEach(validation::validateDeclared);
        return planning.catalog;
    }

    private static List<SqlNode> parsePieces(List<String> pieces) {
        List<SqlNode> statements = new ArrayList<>();
        pieces.forEach(p -> statements.addAll(RsqlParser.parseScript(p)));
        return statements;
    }

    /** One planning run: the state of a script being planned. */
    final class Planning {
        private final String jobName;
        private final PlannerSession session = new PlannerSession();
        private final ScriptCatalog catalog = new ScriptCatalog();
        private final Map<String, String> parameters = new LinkedHashMap<>();
        private final List<SqlRichInsert> inserts = new ArrayList<>();
        private final DdlConverter ddl = new DdlConverter(session, this::placeholder);
        /** Tables whose rows are an existing graph node's, by name (embedded planning). */
        private final Map<String, GraphBuilder.Stream> boundTables = new LinkedHashMap<>();
        private final List<String> relPlans = new ArrayList<>();
        private CalcCompiler compiler;
        private GraphTranslator translator;
        /** Queries planned for their stream (embedded planning), naming their placeholder tables. */
        private int queries;

        Planning(String jobName) {
            this.jobName = jobName;
        }

        private String placeholder(String name) {
            String v = parameters.get(name);
            if (v == null) {
                v = context.config().get(name);
            }
            if (v == null) {
                v = context.environment().apply(name);
            }
            if (v == null) {
                v = System.getProperty(name);
            }
            return v;
        }

        PlannedJob run(List<SqlNode> statements) {
            declare(statements);
            return translate();
        }

        void declare(List<SqlNode> statements) {
            context.functions().forEach(this::registerFunctionObject);
            for (SqlNode stmt : statements) {
                atStatement(stmt.getParserPosition(), () -> statement(stmt));
            }
        }

        private PlannedJob translate() {
            if (inserts.isEmpty()) {
                throw new PlanningException("the script has no INSERT INTO statement and no SELECT: nothing to run");
            }
            StartupTrace.mark("planner: DDL done, " + inserts.size() + " INSERTs to plan");
            GraphBuilder builder = new GraphBuilder(jobName).parameters(new Options(parameters));
            List<String> physicalPlans = translateInserts(builder);
            if (!"false".equalsIgnoreCase(setting(RULE_SET))) {
                builder.fuseRuleSets(new RuleSetPlanner(compiler));
            }
            JobGraph graph = builder.build();
            List<String> warnings = new ConnectorValidation(jobName, new Options(allSettings()),
                    context.classLoader(), catalog).validate(graph);
            StartupTrace.mark("planner: connectors validated");
            compile();
            StartupTrace.mark("planner: generated code compiled");
            return new PlannedJob(graph, catalog, compiler.source(), relPlans, physicalPlans, warnings,
                    compiler.sharedPredicates());
        }

        /** Translates the INSERTs of the script into the graph; returns their physical plans. */
        List<String> translateInserts(GraphBuilder builder) {
            GraphTranslator translator = translator(builder);
            StreamSettings settings = streamSettings();
            List<String> physicalPlans = new ArrayList<>();
            for (SqlRichInsert insert : inserts) {
                atStatement(insert.getParserPosition(), () -> physicalPlans.add(translator.translateInsert(
                        optimized(insert), insert.getParserPosition(), session.viewScopes(),
                        settings.withEmit(emitSpec(insert, settings))).explain()));
                StartupTrace.mark("planner: INSERT " + physicalPlans.size() + " translated");
            }
            inserts.clear();
            return physicalPlans;
        }

        /** The job's calc compiler and graph translator, made once the settings they depend on are known. */
        private GraphTranslator translator(GraphBuilder builder) {
            if (translator == null) {
                compiler = new CalcCompiler(session.typeFactory(), session.conformance(), context.classLoader(),
                        jobName)
                        .timeZone(jobTimeZone()).multiPattern(!"false".equalsIgnoreCase(setting(MULTI_PATTERN)))
                        .sharedPredicates(!"false".equalsIgnoreCase(setting(SHARED_PREDICATES)))
                        .codeCache(codeCache());
                translator = new GraphTranslator(builder, compiler, this::sourceSettings,
                        new ConnectorChangelogs(context.classLoader())).bindTables(t -> boundTables.get(t.name()))
                        .projectionPushdown(!"false".equalsIgnoreCase(setting(PROJECTION_PUSHDOWN)));
            }
            return translator;
        }

        /** Where compiled code is kept: under the state directory, if there is one and the cache is not off. */
        private CompiledCodeCache codeCache() {
            String stateDir = setting("state.dir");
            if (stateDir == null || "false".equalsIgnoreCase(setting(CODE_CACHE))) {
                return null;
            }
            return new CompiledCodeCache(Path.of(stateDir, CODE_CACHE_DIR));
        }

        /** The INSERT validated, converted to relational algebra and optimised. */
        private RelNode optimized(SqlRichInsert insert) {
            RelNode converted = session.toRel(retarget(insert)).rel;
            StartupTrace.mark("planner: INSERT validated and converted");
            session.viewScopes().addStatement(converted);
            RelNode rel = PlanOptimizer.optimize(SubQueryRewriter.rewrite(converted, session::queryPosition,
                    insert.getParserPosition()));
            int distinctSplitBuckets = streamSettings().aggregation().distinctSplitBuckets();
            if (distinctSplitBuckets > 0) {
                rel = PlanOptimizer.optimize(SplitAggregateRule.apply(rel, distinctSplitBuckets));
            }
            ConstantExpressions.check(rel, insert, rel.getCluster().getRexBuilder());
            OverWindows.check(rel, insert);
            StartupTrace.mark("planner: INSERT optimized");
            relPlans.add(RelOptUtil.toString(rel));
            if (Boolean.getBoolean("rsql.debug.plans")) {
                System.out.println(RelOptUtil.toString(rel));
            }
            return rel;
        }

        /** Runs one statement's work; any failure becomes a {@link PlanningException} at its position. */
        private void atStatement(SqlParserPos pos, Runnable work) {
            try {
                work.run();
            } catch (CalciteContextException e) {
                throw fromCalcite(e);
            } catch (CalciteException e) {
                throw new PlanningException(pos, e.getMessage(), e);
            } catch (PlanningException e) {
                throw e;
            } catch (RuntimeException e) {
                throw unexpected(pos, e);
            }
        }

        /** Runs DDL, SET and INSERT statements (INSERTs are translated by {@link #translateInserts}). */
        void execute(String statements) {
            for (SqlNode stmt : RsqlParser.parseScript(statements)) {
                atStatement(stmt.getParserPosition(), () -> statement(stmt));
            }
        }

        /**
         * Declares a table whose rows are {@code stream}'s, by a CREATE TABLE over the stream's columns (with a
         * WATERMARK when {@code rowtime} names one), so queries read the stream where they scan the table.
         */
        void bindTable(String name, GraphBuilder.Stream stream, String rowtime, long watermarkDelayMillis) {
            execute(BoundTable.ddl(name, stream.rowType(), rowtime, watermarkDelayMillis));
            boundTables.put(name, stream);
        }

        /** Plans a query into {@code builder}'s graph and returns its stream (a changelog when the query updates). */
        GraphBuilder.Stream query(String sql, GraphBuilder builder) {
            List<SqlNode> statements = RsqlParser.parseScript(sql);
            if (statements.size() != 1 || !statements.get(0).getKind().belongsTo(org.apache.calcite.sql.SqlKind.QUERY)) {
                throw new PlanningException("expected one SELECT query, got: " + sql);
            }
            SqlNode query = statements.get(0);
            GraphBuilder.Stream[] result = new GraphBuilder.Stream[1];
            atStatement(query.getParserPosition(), () -> {
                BoundTable sink = BoundTable.querySink("$query_" + ++queries, query, session.queryRowType(query));
                catalog.addTable(sink.table, false);
                registerTable(sink.table);
                StreamSettings settings = streamSettings();
                result[0] = translator(builder).translateQuery(optimized(sink.insert), query.getParserPosition(),
                        session.viewScopes(), settings.withEmit(emitSpec(sink.insert, settings)));
            });
            return result[0];
        }

        /** Compiles the calc code of every query planned so far; the graph's functions work from then on. */
        void compile() {
            if (compiler != null) {
                compiler.compile();
            }
        }

        /** A SET value of the script, else the engine setting from conf/, else null. */
        private String setting(String key) {
            return parameters.get(key) != null ? parameters.get(key) : context.config().get(key);
        }

        /**
         * The time zone of the zone-dependent functions (FROM_UNIXTIME, UNIX_TIMESTAMP, TO_TIMESTAMP(ms), ...):
         * {@code table.local-time-zone} (Flink) or {@code blink.job.timeZone} (Blink), from SET or conf/; else the
         * system's zone, as in Flink.
         */
        private String jobTimeZone() {
            String zone = null;
            for (String key : dev.rsql.runtime.connector.LocalTimeZone.KEYS) {
                zone = parameters.get(key) != null ? parameters.get(key) : context.config().get(key);
                if (zone != null) {
                    break;
                }
            }
            if (zone == null || zone.isBlank() || zone.trim().equalsIgnoreCase("default")) {
                // Flink's default: the zone of the machine (as the RocketMQ source's startTime uses)
                zone = java.time.ZoneId.systemDefault().getId();
            }
            try {
                java.time.ZoneId id = java.time.ZoneId.of(zone.trim(), java.time.ZoneId.SHORT_IDS);
                // java.util.TimeZone (the generated code's) knows offsets only as GMT+hh:mm
                return id instanceof java.time.ZoneOffset ? "GMT" + (id.getId().equals("Z") ? "" : id.getId())
                        : id.getId();
            } catch (java.time.DateTimeException e) {
                throw new PlanningException("unknown time zone '" + zone + "' (table.local-time-zone / "
                        + "blink.job.timeZone): use an id such as 'Asia/Shanghai' or 'UTC'");
            }
        }

        private void statement(SqlNode stmt) {
            if (stmt instanceof SqlSet) {
                SqlSet set = (SqlSet) stmt;
                if (set.getKey() != null) {
                    try {
                        EngineSettings.check(set.getKey(), set.getValue());
                    } catch (ConfigException e) {
                        throw new PlanningException(set.getParserPosition(), "SET '" + set.getKey() + "': "
                                + e.getMessage());
                    }
                    parameters.put(set.getKey(), set.getValue());
                }
            } else if (stmt instanceof SqlReset) {
                String key = ((SqlReset) stmt).getKey();
                if (key == null) {
                    parameters.clear();
                } else {
                    parameters.remove(key);
                }
            } else if (stmt instanceof SqlCreateTable) {
                CatalogTable table = ddl.table((SqlCreateTable) stmt);
                if (catalog.addTable(table, ((SqlCreateTable) stmt).isIfNotExists())) {
                    registerTable(table);
                }
            } else if (stmt instanceof SqlCreateView) {
                SqlCreateView v = (SqlCreateView) stmt;
                CatalogView view = ddl.view(v);
                RelDataType rowType = viewRowType(view);
                if (catalog.addView(view, v.isIfNotExists(), v.isReplace())) {
                    session.register(view.name(), QueryTable.view(rowType, () -> SqlDeepCopier.copy(view.query()), session));
                }
            } else if (stmt instanceof SqlCreateFunction) {
                SqlCreateFunction f = (SqlCreateFunction) stmt;
                CatalogFunction function = ddl.function(f);
                if (f.getLanguage() != null && !f.getLanguage().equalsIgnoreCase("JAVA")) {
                    throw new PlanningException(f.getParserPosition(), "function " + function.name() + ": only "
                            + "LANGUAGE JAVA is supported, not " + f.getLanguage());
                }
                if (catalog.addFunction(function, f.isIfNotExists(), f.isReplace())) {
                    registerFunction(function);
                }
            } else if (stmt instanceof SqlStatementSet) {
                inserts.addAll(((SqlStatementSet) stmt).getInserts());
            } else if (stmt instanceof SqlRichInsert) {
                inserts.add((SqlRichInsert) stmt);
            } else if (stmt.getKind().belongsTo(org.apache.calcite.sql.SqlKind.QUERY)) {
                PrintedSelect select = new PrintedSelect(stmt, session.queryRowType(stmt), selectSink);
                catalog.addTable(select.table, false);
                registerTable(select.table);
                inserts.add(select.insert);
            } else {
                throw new PlanningException(stmt.getParserPosition(), "a " + stmt.getKind().name().toLowerCase(Locale.ROOT)
                        + " statement cannot run on its own: put a query in INSERT INTO ... or CREATE VIEW");
            }
        }

        /** Loads a CREATE FUNCTION class (ext/ jars and the class path) and makes it callable in the script. */
        private void registerFunction(CatalogFunction function) {
            try {
                session.registerFunction(function.name(),
                        userFunctions().load(function.name(), function.className(), context.classLoader()));
            } catch (IllegalArgumentException e) {
                throw new PlanningException(function.position(), e.getMessage(), e);
            }
        }

        /** Makes a function the application registered as an object callable in the script. */
        private void registerFunctionObject(String name, Object function) {
            try {
                session.registerFunction(name, userFunctions().load(name, function));
            } catch (IllegalArgumentException e) {
                throw new PlanningException(e.getMessage() + " (a function registered with the engine)");
            }
        }

        private UserFunctions userFunctions() {
            return new UserFunctions(session.typeFactory(), text -> {
                SqlNode cast = RsqlParser.parseExpression("CAST(NULL AS " + text + ")");
                return session.deriveType((SqlDataTypeSpec) ((SqlCall) cast).operand(1));
            });
        }

        /**
         * A table without computed columns or watermark is its connector table. Otherwise the connector table is
         * registered under a hidden name and the table is a query over it that adds the computed columns and, after
         * a watermark assigner, drops the watermark strategy's column.
         */
        private void registerTable(CatalogTable table) {
            RelDataTypeFactory f = session.typeFactory();
            ConnectorTable stored = new ConnectorTable(table, table.storedRowType(f));
            if (!table.hasComputedColumns() && table.watermark() == null) {
                session.register(table.name(), stored);
                return;
            }
            session.register(STORED_PREFIX + table.name(), stored);
            RelDataType queryType = session.queryRowType(tableQuery(table));
            int rowtime = -1;
            RelDataType rowType = queryType;
            if (table.watermark() != null) {
                WatermarkSpec wm = table.watermark();
                RelDataType strategy = queryType.getFieldList().get(queryType.getFieldCount() - 1).getType();
                if (strategy.getSqlTypeName() != SqlTypeName.TIMESTAMP) {
                    throw new PlanningException(wm.position(), "the WATERMARK of table " + table.name()
                            + " must be a TIMESTAMP, e.g. withOffset(" + wm.column() + ", 2000) or " + wm.column()
                            + " - INTERVAL '2' SECOND; got " + strategy.getFullTypeString());
                }
                rowtime = queryType.getField(wm.column(), false, false).getIndex();
                RelDataType rowtimeType = queryType.getFieldList().get(rowtime).getType();
                if (rowtimeType.getSqlTypeName() != SqlTypeName.TIMESTAMP) {
                    throw new PlanningException(wm.position(), "the rowtime column " + wm.column() + " of table "
                            + table.name() + " must be a TIMESTAMP, got " + rowtimeType.getFullTypeString());
                }
                rowType = f.createStructType(queryType.getFieldList().subList(0, queryType.getFieldCount() - 1));
            }
            session.register(table.name(), new QueryTable(rowType, () -> tableQuery(table), session, rowtime));
        }

        /**
         * SELECT stored and computed columns FROM the stored table; with a watermark, that query is wrapped in
         * SELECT *, strategy AS $watermark so the strategy may use computed columns.
         */
        private SqlNode tableQuery(CatalogTable table) {
            SqlParserPos pos = table.position();
            SqlNodeList select = new SqlNodeList(pos);
            for (TableColumn c : table.columns()) {
                SqlIdentifier name = new SqlIdentifier(c.name(), c.position());
                select.add(c.isComputed()
                        ? SqlStdOperatorTable.AS.createCall(c.position(), SqlDeepCopier.copy(c.expression()), name)
                        : name);
            }
            SqlNode columns = select(pos, select, new SqlIdentifier(STORED_PREFIX + table.name(), pos));
            WatermarkSpec wm = table.watermark();
            if (wm == null) {
                return columns;
            }
            SqlNodeList withWatermark = new SqlNodeList(wm.position());
            withWatermark.add(SqlIdentifier.star(wm.position()));
            withWatermark.add(SqlStdOperatorTable.AS.createCall(wm.position(), SqlDeepCopier.copy(wm.strategy()),
                    new SqlIdentifier("$watermark", wm.position())));
            return select(wm.position(), withWatermark, SqlStdOperatorTable.AS.createCall(pos, columns,
                    new SqlIdentifier(table.name(), pos)));
        }

        private static SqlSelect select(SqlParserPos pos, SqlNodeList items, SqlNode from) {
            return new SqlSelect(pos, null, items, from, null, null, null, null, null, null, null, null, null);
        }

        private RelDataType viewRowType(CatalogView view) {
            RelDataType rowType = session.queryRowType(view.query());
            if (view.columnNames().isEmpty()) {
                return rowType;
            }
            if (view.columnNames().size() != rowType.getFieldCount()) {
                throw new PlanningException(view.position(), "view " + view.name() + " names "
                        + view.columnNames().size() + " columns but its query returns " + rowType.getFieldCount());
            }
            RelDataTypeFactory.Builder b = session.typeFactory().builder();
            for (int i = 0; i < rowType.getFieldCount(); i++) {
                b.add(view.columnNames().get(i), rowType.getFieldList().get(i).getType());
            }
            return b.build();
        }

        /** An INSERT into a table with computed columns writes its stored columns. */
        private SqlRichInsert retarget(SqlRichInsert insert) {
            SqlNode target = insert.getTargetTable();
            if (target instanceof SqlIdentifier) {
                SqlIdentifier id = (SqlIdentifier) target;
                String name = id.names.get(id.names.size() - 1);
                if (catalog.view(name) != null) {
                    throw new PlanningException(id.getParserPosition(), "cannot insert into view " + name);
                }
                CatalogTable table = catalog.table(name);
                if (table != null && (table.hasComputedColumns() || table.watermark() != null)) {
                    insert.setOperand(1, new SqlIdentifier(STORED_PREFIX + table.name(), id.getParserPosition()));
                }
            }
            return insert;
        }

        private ErrorPolicy errorPolicy(CatalogTable t) {
            try {
                return ErrorPolicy.of(t.name(), t.options());
            } catch (ConfigException e) {
                throw new PlanningException(t.optionPosition(e.option()), e.getMessage());
            }
        }

        /** Settings of stateful operators, from SET (Flink keys, or Blink's) over the engine configuration. */
        private StreamSettings streamSettings() {
            Options o = new Options(allSettings());
            long ttl;
            try {
                ttl = o.containsKey("blink.state.ttl.ms") ? o.getLong(0, "blink.state.ttl.ms")
                        : o.getDuration(Duration.ZERO, "table.exec.state.ttl", "state.ttl").toMillis();
            } catch (ConfigException e) {
                throw new PlanningException(e.getMessage());
            }
            String late = o.get("table.exec.late-data.table", "late-data.table");
            TableDescriptor lateTable = null;
            if (late != null) {
                CatalogTable t = catalog.table(late);
                if (t == null) {
                    throw new PlanningException("SET 'table.exec.late-data.table' names " + late
                            + ", which is not a table of the script");
                }
                lateTable = t.descriptor();
            }
            return new StreamSettings(ttl, lateTable, EmitSpec.ON_WATERMARK, AggregationSettings.from(o));
        }

        /**
         * The INSERT's EMIT clause: early results every delay before the watermark, late updates after it. Late
         * updates need state kept past the window's end: 'table.exec.emit.allow-lateness' if set, else the state TTL,
         * else one hour. Without an AFTER WATERMARK strategy a window closes at the watermark (no allowed lateness),
         * whatever other INSERTs of the script say.
         */
        private EmitSpec emitSpec(SqlRichInsert insert, StreamSettings settings) {
            long early = -1;
            long late = -1;
            SqlEmit emit = insert.getEmit();
            if (emit != null) {
                for (SqlEmitStrategy s : emit.getStrategies()) {
                    if (s.appliesBeforeWatermark()) {
                        early = s.getDelayMillis();
                    }
                    if (s.appliesAfterWatermark()) {
                        late = s.getDelayMillis();
                    }
                }
            }
            if (late < 0) {
                return new EmitSpec(early, late, 0);
            }
            long lateness;
            try {
                lateness = new Options(allSettings()).getDuration(Duration.ZERO, "table.exec.emit.allow-lateness")
                        .toMillis();
            } catch (ConfigException e) {
                throw new PlanningException(insert.getParserPosition(), e.getMessage());
            }
            if (lateness == 0) {
                lateness = settings.stateTtlMillis() > 0 ? settings.stateTtlMillis() : Duration.ofHours(1).toMillis();
            }
            return new EmitSpec(early, late, lateness);
        }

        /** Engine configuration overridden by the script's SET values. */
        private Map<String, String> allSettings() {
            Map<String, String> all = new LinkedHashMap<>(context.config().asMap());
            all.putAll(parameters);
            return all;
        }

        private TableDescriptor deadLetterTable(CatalogTable t) {
            String dl = t.options().get("scan.dead-letter-table", "dead-letter-table", "deadLetterTable");
            if (dl == null) {
                return null;
            }
            // read by the tasks; malformed, it fails here
            ErrorPolicy.deadLetterPayloadBytes(t.name(), t.options());
            CatalogTable dlTable = catalog.table(dl);
            if (dlTable == null) {
                throw new PlanningException(t.position(), "table " + t.name() + ": dead-letter table " + dl
                        + " is not declared in the script");
            }
            return dlTable.descriptor();
        }

        private GraphTranslator.SourceSettings sourceSettings(ConnectorTable table) {
            CatalogTable t = table.catalogTable();
            return new GraphTranslator.SourceSettings(errorPolicy(t), deadLetterTable(t));
        }
    }

    /** Any other failure still names the statement: the user sees one line with a position, never a stack trace. */
    private static PlanningException unexpected(SqlParserPos pos, RuntimeException e) {
        String message = e instanceof ConfigException ? e.getMessage()
                : "cannot plan this statement: " + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + e.getMessage());
        return new PlanningException(pos, message, e);
    }

    private static PlanningException fromCalcite(CalciteContextException e) {
        SqlParserPos pos = new SqlParserPos(e.getPosLine(), e.getPosColumn(), e.getEndPosLine(), e.getEndPosColumn());
        Throwable cause = e.getCause();
        String message = cause instanceof SqlValidatorException || cause instanceof ConfigException
                ? cause.getMessage() : e.getMessage();
        // Calcite says "Object 'x' not found" for an unknown table; in a script it can only be a table or view.
        if (message.startsWith("Object '") && message.endsWith("' not found")) {
            message = "table or view " + message.substring("Object ".length());
        }
        return new PlanningException(pos, message, e);
    }
}
