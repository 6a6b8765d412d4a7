package dev.rsql.planner.calcite;

import dev.rsql.planner.functions.FunctionRewriter;
import dev.rsql.planner.functions.RsqlOperatorTable;
import dev.rsql.planner.functions.ScriptFunctions;
import dev.rsql.sql.parser.RsqlParser;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.config.NullCollation;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.hint.HintStrategyTable;
import org.apache.calcite.rel.hint.HintPredicates;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Calcite's front end for one script: type factory, a schema holding the script's tables and views, the operator
 * table, validation, and conversion to relational algebra. Names resolve case-insensitively.
 */
public final class PlannerSession {

    private final JavaTypeFactoryImpl typeFactory = new JavaTypeFactoryImpl(RsqlTypeSystem.INSTANCE);
    private final CalciteSchema rootSchema = CalciteSchema.createRootSchema(false, false);
    private final CalciteCatalogReader catalogReader;
    private final SqlOperatorTable operatorTable;
    private final ScriptFunctions functions = new ScriptFunctions();
    private final FunctionRewriter functionRewriter = new FunctionRewriter(functions);
    private final SqlConformance conformance = RsqlParser.config().conformance();
    private final RelOptCluster cluster;
    /** Each subquery (and view query) converted so far, with where it stands in the script. */
    private final List<ConvertedQuery> convertedQueries = new ArrayList<>();
    /**
     * The positions of the first {@code indexedQueries} converted queries by their plan as text (the converter may
     * copy a plan after converting it, e.g. to propagate hints). Made when a position is asked for, which only
     * refusing a subquery does: printing every plan as it is converted would cost each INSERT milliseconds.
     */
    private final Map<String, SqlParserPos> queryPositions = new HashMap<>();
    private int indexedQueries;
    private final ViewScopes viewScopes = new ViewScopes();

    public PlannerSession() {
        Properties props = new Properties();
        props.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
        this.catalogReader = new CalciteCatalogReader(rootSchema, List.of(), typeFactory,
                new CalciteConnectionConfigImpl(props));
        this.operatorTable = RsqlOperatorTable.forScript(functions);
        this.cluster = RelOptCluster.create(new HepPlanner(HepProgram.builder().build()), new RexBuilder(typeFactory));
        this.cluster.setMetadataQuerySupplier(() -> new RelMetadataQuery(SharedMetadataHandlers.INSTANCE));
    }

    public JavaTypeFactoryImpl typeFactory() {
        return typeFactory;
    }

    public SqlConformance conformance() {
        return conformance;
    }

    public void register(String name, Table table) {
        rootSchema.add(name, table);
    }

    /** Makes a function created by the script (CREATE FUNCTION) callable; it hides a built-in of the same name. */
    public void registerFunction(String name, SqlOperator function) {
        functions.register(name, function);
    }

    public SqlValidator newValidator() {
        SqlValidator.Config config = SqlValidator.Config.DEFAULT
                .withConformance(conformance)
                .withIdentifierExpansion(true)
                .withTypeCoercionEnabled(true)
                // As Flink: NULL is the smallest value (ORDER BY x: NULLS FIRST, ORDER BY x DESC: NULLS LAST)
                .withDefaultNullCollation(NullCollation.LOW);
        return new RsqlValidator(operatorTable, catalogReader, typeFactory, config);
    }

    /** The declared type as the engine stores it. */
    public RelDataType deriveType(SqlDataTypeSpec spec) {
        RelDataType t = spec.deriveType(newValidator());
        return TypeConverter.normalize(t, typeFactory);
    }

    /** Validates a copy of the query and returns its row type. */
    public RelDataType queryRowType(SqlNode query) {
        SqlValidator validator = newValidator();
        SqlNode validated = validator.validate(rewrite(SqlDeepCopier.copy(query)));
        return validator.getValidatedNodeType(validated);
    }

    /** Brings a fresh parse tree to the forms validation expects: window syntax, then function rewrites. */
    private SqlNode rewrite(SqlNode node) {
        return functionRewriter.rewrite(WindowSyntaxRewriter.rewrite(node));
    }

    /** Validates and converts a statement (query or INSERT). */
    public RelRoot toRel(SqlNode statement) {
        return convert(statement, cluster);
    }

    /** Validates and converts a query in the cluster of the statement being converted (view expansion). */
    RelRoot expand(SqlNode query, RelOptCluster targetCluster) {
        return convert(query, targetCluster);
    }

    private RelRoot convert(SqlNode node, RelOptCluster targetCluster) {
        SqlValidator validator = newValidator();
        SqlNode validated = validator.validate(rewrite(node));
        SqlToRelConverter.Config config = SqlToRelConverter.config()
                .withTrimUnusedFields(false)
                .withExpand(false)
                .withInSubQueryThreshold(Integer.MAX_VALUE)
                .withHintStrategyTable(HintStrategyTable.builder()
                        .hintStrategy("OPTIONS", HintPredicates.TABLE_SCAN)
                        .build());
        SqlToRelConverter converter = new SqlToRelConverter(NO_STRING_VIEWS, validator, catalogReader, targetCluster,
                StandardConvertletTable.INSTANCE, config) {
            @Override
            protected RelRoot convertQueryRecursive(SqlNode query, boolean top, RelDataType targetRowType) {
                RelRoot root = super.convertQueryRecursive(query, top, targetRowType);
                convertedQueries.add(new ConvertedQuery(root.rel, query.getParserPosition()));
                if (root.rel instanceof Project) {
                    // EXISTS reads the query without its projection
                    convertedQueries.add(new ConvertedQuery(((Project) root.rel).getInput(),
                            query.getParserPosition()));
                }
                return root;
            }
        };
        return converter.convertQuery(validated, false, true);
    }

    /**
     * The position of the query (a subquery, a view's query) whose converted plan is {@code rel}, or null. A
     * subquery's plan may be its query's with or without a projection of its columns.
     */
    public SqlParserPos queryPosition(RelNode rel) {
        for (; indexedQueries < convertedQueries.size(); indexedQueries++) {
            ConvertedQuery q = convertedQueries.get(indexedQueries);
            queryPositions.putIfAbsent(RelOptUtil.toString(q.plan()), q.position());
        }
        SqlParserPos pos = queryPositions.get(RelOptUtil.toString(rel));
        if (pos == null && rel instanceof Project) {
            pos = queryPositions.get(RelOptUtil.toString(((Project) rel).getInput()));
        }
        return pos;
    }

    /** Which view each node of a converted plan comes from. */
    public ViewScopes viewScopes() {
        return viewScopes;
    }

    private record ConvertedQuery(RelNode plan, SqlParserPos position) {
    }

    /** Views are expanded from parse trees by {@link QueryTable}, never from SQL strings. */
    private static final RelOptTable.ViewExpander NO_STRING_VIEWS = (rowType, queryString, schemaPath, viewPath) -> {
        throw new UnsupportedOperationException("views are expanded by QueryTable");
    };
}
