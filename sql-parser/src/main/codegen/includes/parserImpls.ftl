<#--
  Blink/Flink extensions of Calcite's grammar, included into the generated Parser.jj through the
  hooks named in config.fmpp. Productions of ours are prefixed "Rsql"; everything else called
  here (SqlStmt, DataType, Expression, ...) is Calcite's.
-->

/**
 * A whole script: statements separated by semicolons; empty statements and a trailing
 * semicolon are allowed. The SQL-client form BEGIN STATEMENT SET; ...; END is folded into one
 * statement here, because its inner semicolons are statement separators to everything else.
 */
SqlNodeList RsqlStmtList() :
{
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    [ RsqlAddScriptStatement(list) ]
    (
        <SEMICOLON>
        [ RsqlAddScriptStatement(list) ]
    )*
    <EOF>
    {
        return new SqlNodeList(list, list.isEmpty() ? SqlParserPos.ZERO : Span.of(list).pos());
    }
}

void RsqlAddScriptStatement(List<SqlNode> list) :
{
    final SqlNode stmt;
}
{
    {
        // No statement starts with a plain identifier: it is a misspelled keyword (CRAETE,
        // INSRT), which Calcite would only report at the token after it.
        if (getToken(1).kind == IDENTIFIER) {
            throw RsqlMisspelledStatement();
        }
    }
    (
        LOOKAHEAD(2)
        stmt = RsqlBeginStatementSet()
    |
        stmt = SqlStmt()
    )
    {
        list.add(stmt);
    }
}

/** A syntax error at the next token, expecting the keywords statements start with. */
JAVACODE ParseException RsqlMisspelledStatement() {
    final int[][] expected = {
        {BEGIN}, {CREATE}, {EXECUTE}, {INSERT}, {RESET}, {SELECT}, {SET}, {UPSERT}, {VALUES},
        {WITH}
    };
    return new ParseException(token, expected, tokenImage);
}

/** BEGIN STATEMENT SET; INSERT ...; INSERT ...; END */
SqlStatementSet RsqlBeginStatementSet() :
{
    final Span s;
    final List<SqlRichInsert> inserts = new ArrayList<SqlRichInsert>();
}
{
    <BEGIN> { s = span(); } <STATEMENT> <SET> <SEMICOLON>
    RsqlAddStatementSetInserts(inserts)
    <END>
    {
        return new SqlStatementSet(s.end(this), inserts);
    }
}

/** EXECUTE STATEMENT SET BEGIN INSERT ...; INSERT ...; END */
SqlStatementSet RsqlExecuteStatementSet() :
{
    final Span s;
    final List<SqlRichInsert> inserts = new ArrayList<SqlRichInsert>();
}
{
    <EXECUTE> { s = span(); } <STATEMENT> <SET> <BEGIN>
    RsqlAddStatementSetInserts(inserts)
    <END>
    {
        return new SqlStatementSet(s.end(this), inserts);
    }
}

/** One or more INSERTs separated by semicolons; the semicolon before END is optional. */
void RsqlAddStatementSetInserts(List<SqlRichInsert> inserts) :
{
    SqlRichInsert insert;
}
{
    insert = RsqlInsert() { inserts.add(insert); }
    (
        <SEMICOLON>
        [ insert = RsqlInsert() { inserts.add(insert); } ]
    )*
}

/**
 * INSERT { INTO | OVERWRITE } t [hints] [(columns)] query [EMIT ...], and UPSERT INTO.
 * Replaces Calcite's SqlInsert() for statements (it is tried first), so that every INSERT is
 * a SqlRichInsert.
 */
SqlRichInsert RsqlInsert() :
{
    final List<SqlLiteral> keywords = new ArrayList<SqlLiteral>();
    final SqlNodeList keywordList;
    final Span s;
    boolean overwrite = false;
    final SqlIdentifier tableName;
    SqlNode tableRef;
    SqlNodeList columnList = null;
    final Pair<SqlNodeList, SqlNodeList> columns;
    final SqlNode source;
    SqlEmit emit = null;
}
{
    (
        <INSERT> { s = span(); }
        (
            <INTO>
        |
            <OVERWRITE> { overwrite = true; }
        )
    |
        <UPSERT> {
            s = span();
            keywords.add(SqlInsertKeyword.UPSERT.symbol(getPos()));
        }
        <INTO>
    )
    {
        keywordList = new SqlNodeList(keywords, s.addAll(keywords).pos());
    }
    tableName = CompoundTableIdentifier()
    (
        tableRef = TableHints(tableName)
    |
        { tableRef = tableName; }
    )
    [ LOOKAHEAD(5) tableRef = ExtendTable(tableRef) ]
    [
        LOOKAHEAD(2)
        columns = ParenthesizedCompoundIdentifierList() {
            if (!columns.right.isEmpty()) {
                tableRef = extend(tableRef, columns.right);
            }
            if (!columns.left.isEmpty()) {
                columnList = columns.left;
            }
        }
    ]
    source = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    [ emit = RsqlEmit() ]
    {
        return new SqlRichInsert(s.end(this), keywordList, tableRef, source, columnList, emit,
            overwrite);
    }
}

/** EMIT strategy [, strategy]* */
SqlEmit RsqlEmit() :
{
    final Span s;
    final List<SqlEmitStrategy> strategies = new ArrayList<SqlEmitStrategy>();
}
{
    <EMIT> { s = span(); }
    RsqlAddEmitStrategy(strategies)
    ( <COMMA> RsqlAddEmitStrategy(strategies) )*
    {
        return new SqlEmit(s.end(this), strategies);
    }
}

/** { WITH DELAY interval | WITHOUT DELAY } [ BEFORE WATERMARK | AFTER WATERMARK ] */
void RsqlAddEmitStrategy(List<SqlEmitStrategy> strategies) :
{
    final Span s;
    SqlIntervalLiteral delay = null;
    SqlEmitStrategy.Position position = SqlEmitStrategy.Position.UNSPECIFIED;
}
{
    (
        <WITH> { s = span(); } <DELAY> delay = RsqlEmitDelay()
    |
        <WITHOUT> { s = span(); } <DELAY>
    )
    [
        <BEFORE> <WATERMARK> { position = SqlEmitStrategy.Position.BEFORE_WATERMARK; }
    |
        <AFTER> <WATERMARK> { position = SqlEmitStrategy.Position.AFTER_WATERMARK; }
    ]
    {
        final SqlEmitStrategy strategy = new SqlEmitStrategy(s.end(this), delay, position);
        for (SqlEmitStrategy other : strategies) {
            if (other.appliesBeforeWatermark() && strategy.appliesBeforeWatermark()
                || other.appliesAfterWatermark() && strategy.appliesAfterWatermark()) {
                throw GrammarSupport.error(strategy.getParserPosition(),
                    "EMIT allows at most one strategy before and one after the watermark");
            }
        }
        strategies.add(strategy);
    }
}

/** Blink's '1' MINUTE (no INTERVAL keyword), or INTERVAL '1' MINUTE; a day-time interval. */
SqlIntervalLiteral RsqlEmitDelay() :
{
    final Span s;
    final String value;
    final SqlIntervalQualifier qualifier;
    final SqlLiteral delay;
}
{
    (
        delay = IntervalLiteral()
    |
        value = SimpleStringLiteral() { s = span(); }
        qualifier = IntervalQualifier() {
            delay = SqlParserUtil.parseIntervalLiteral(s.end(qualifier), 1, value, qualifier);
        }
    )
    {
        if (delay.getTypeName().getFamily() != SqlTypeFamily.INTERVAL_DAY_TIME) {
            throw GrammarSupport.error(delay.getParserPosition(),
                "EMIT delay must be a day-time interval, e.g. '1' MINUTE");
        }
        return (SqlIntervalLiteral) delay;
    }
}

/** SET, or SET key = value (Flink: SET 'key' = 'value'). */
SqlNode RsqlSet() :
{
    final Span s;
    SqlNode key = null;
    SqlNode value = null;
}
{
    <SET> { s = span(); }
    [
        // The key may be a bare keyword (see RsqlOptionKey), which JavaCC cannot predict.
        LOOKAHEAD({ getToken(1).kind != SEMICOLON && getToken(1).kind != EOF })
        key = RsqlOptionKey() <EQ> value = RsqlOptionValue()
    ]
    {
        return new SqlSet(s.end(this), key, value);
    }
}

/** RESET, or RESET key. */
SqlNode RsqlReset() :
{
    final Span s;
    SqlNode key = null;
}
{
    <RESET> { s = span(); }
    [
        LOOKAHEAD({ getToken(1).kind != SEMICOLON && getToken(1).kind != EOF })
        key = RsqlOptionKey()
    ]
    {
        return new SqlReset(s.end(this), key);
    }
}

/**
 * After CREATE [OR REPLACE]: [TEMPORARY [SYSTEM]] then TABLE, FUNCTION or VIEW.
 */
SqlCreate RsqlCreate(Span s, boolean replace) :
{
    boolean temporary = false;
    boolean system = false;
    final SqlCreate create;
}
{
    [
        <TEMPORARY> { temporary = true; }
        [ <SYSTEM> { system = true; } ]
    ]
    (
        create = RsqlCreateTable(s, replace, temporary, system)
    |
        create = RsqlCreateFunction(s, replace, temporary, system)
    |
        create = RsqlCreateView(s, replace, temporary, system)
    )
    {
        return create;
    }
}

boolean RsqlIfNotExists() :
{
}
{
    LOOKAHEAD(3)
    <IF> <NOT> <EXISTS> { return true; }
|
    { return false; }
}

/**
 * CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name (element [, element]*) [COMMENT 'c']
 * [PARTITIONED BY (cols)] [WITH (key = value [, key = value]*)]
 */
SqlCreate RsqlCreateTable(Span s, boolean replace, boolean temporary, boolean system) :
{
    final SqlCreateTable.Builder table;
    final boolean ifNotExists;
    final SqlIdentifier name;
    String comment;
    SqlNodeList list;
}
{
    <TABLE> {
        if (replace) {
            throw GrammarSupport.error(getPos(), "CREATE OR REPLACE TABLE is not supported");
        }
        if (system) {
            throw GrammarSupport.error(getPos(), "SYSTEM is only allowed for functions");
        }
    }
    ifNotExists = RsqlIfNotExists()
    name = CompoundIdentifier() {
        table = SqlCreateTable.builder(name).temporary(temporary).ifNotExists(ifNotExists);
    }
    <LPAREN>
    RsqlTableElement(table)
    ( <COMMA> RsqlTableElement(table) )*
    <RPAREN>
    [ <COMMENT> comment = RsqlStringValue() { table.comment(comment); } ]
    [
        <PARTITIONED> <BY> list = ParenthesizedSimpleIdentifierList() {
            table.partitionKeys(list);
        }
    ]
    [ <WITH> list = RsqlTableOptions() { table.options(list); } ]
    {
        return table.build(s.end(this));
    }
}

/** One element of the CREATE TABLE list, added to the builder. */
void RsqlTableElement(SqlCreateTable.Builder table) :
{
    final SqlWatermark watermark;
    final SqlTableIndex index;
    final SqlTableConstraint constraint;
    final SqlTableColumn column;
}
{
    // WATERMARK is not reserved: "watermark INT" is a column.
    LOOKAHEAD(<WATERMARK> [ SimpleIdentifier() ] <FOR>)
    watermark = RsqlWatermark() {
        if (table.hasWatermark()) {
            throw GrammarSupport.error(watermark.getParserPosition(),
                "a table can have only one WATERMARK");
        }
        table.watermark(watermark);
    }
|
    // INDEX is not reserved either: "index INT" is a column.
    LOOKAHEAD(2)
    index = RsqlTableIndex() { table.index(index); }
|
    constraint = RsqlTableConstraint() { RsqlAddConstraint(table, constraint); }
|
    <PERIOD> <FOR> <SYSTEM_TIME> { table.dimensionTable(); }
|
    LOOKAHEAD(2)
    column = RsqlComputedColumn() { table.column(column); }
|
    RsqlColumn(table)
}

JAVACODE void RsqlAddConstraint(SqlCreateTable.Builder table, SqlTableConstraint constraint) {
    if (constraint.isPrimaryKey() && table.hasPrimaryKey()) {
        throw GrammarSupport.error(constraint.getParserPosition(),
            "a table can have only one PRIMARY KEY");
    }
    table.constraint(constraint);
}

/** WATERMARK [name] FOR column AS expression */
SqlWatermark RsqlWatermark() :
{
    final Span s;
    SqlIdentifier name = null;
    final SqlIdentifier column;
    final SqlNode strategy;
}
{
    <WATERMARK> { s = span(); }
    [ name = SimpleIdentifier() ]
    <FOR> column = CompoundIdentifier()
    <AS> strategy = Expression(ExprContext.ACCEPT_NON_QUERY)
    {
        return new SqlWatermark(s.end(this), name, column, strategy);
    }
}

/** [UNIQUE] INDEX (cols) */
SqlTableIndex RsqlTableIndex() :
{
    final Span s;
    boolean unique = false;
    final SqlNodeList columns;
}
{
    (
        <UNIQUE> { s = span(); unique = true; } <INDEX>
    |
        <INDEX> { s = span(); }
    )
    columns = ParenthesizedSimpleIdentifierList()
    {
        return new SqlTableIndex(s.end(this), unique, columns);
    }
}

/** [CONSTRAINT name] { PRIMARY KEY | UNIQUE } (cols) [[NOT] ENFORCED] */
SqlTableConstraint RsqlTableConstraint() :
{
    final Span s;
    SqlIdentifier name = null;
    final boolean primaryKey;
    final SqlNodeList columns;
    final Boolean enforced;
}
{
    (
        <CONSTRAINT> { s = span(); } name = SimpleIdentifier()
        (
            <PRIMARY> <KEY> { primaryKey = true; }
        |
            <UNIQUE> { primaryKey = false; }
        )
    |
        <PRIMARY> { s = span(); } <KEY> { primaryKey = true; }
    |
        <UNIQUE> { s = span(); primaryKey = false; }
    )
    columns = ParenthesizedSimpleIdentifierList()
    enforced = RsqlEnforcement()
    {
        return new SqlTableConstraint(s.end(this), name, primaryKey, columns, enforced);
    }
}

/** ENFORCED (true), NOT ENFORCED (false) or nothing (null). */
Boolean RsqlEnforcement() :
{
}
{
    <ENFORCED> { return Boolean.TRUE; }
|
    <NOT> <ENFORCED> { return Boolean.FALSE; }
|
    { return null; }
}

/** name AS expression [COMMENT 'c'] */
SqlTableColumn RsqlComputedColumn() :
{
    final SqlIdentifier name;
    final Span s;
    final SqlNode expression;
    String comment = null;
}
{
    name = SimpleIdentifier() { s = span(); }
    <AS> expression = Expression(ExprContext.ACCEPT_NON_QUERY)
    [ <COMMENT> comment = RsqlStringValue() ]
    {
        return new SqlComputedColumn(s.end(this), name, expression, comment);
    }
}

/**
 * name type [NOT NULL] [HEADER | METADATA [FROM 'key'] [VIRTUAL]]
 * [[CONSTRAINT n] PRIMARY KEY [[NOT] ENFORCED]] [COMMENT 'c']
 */
void RsqlColumn(SqlCreateTable.Builder table) :
{
    final SqlIdentifier name;
    final Span s;
    SqlDataTypeSpec type;
    final boolean nullable;
    boolean header = false;
    boolean metadata = false;
    String metadataKey = null;
    boolean isVirtual = false;
    Span keySpan;
    SqlIdentifier constraintName = null;
    Boolean enforced;
    SqlTableConstraint primaryKey = null;
    String comment = null;
}
{
    name = SimpleIdentifier() { s = span(); }
    type = DataType()
    nullable = NullableOptDefaultTrue() {
        type = type.withNullable(nullable);
    }
    [
        <HEADER> { header = true; }
    |
        <METADATA> { metadata = true; }
        [ <FROM> metadataKey = RsqlStringValue() ]
        [ <VIRTUAL> { isVirtual = true; } ]
    ]
    [
        (
            <CONSTRAINT> { keySpan = span(); } constraintName = SimpleIdentifier() <PRIMARY>
        |
            <PRIMARY> { keySpan = span(); }
        )
        <KEY>
        enforced = RsqlEnforcement() {
            primaryKey = new SqlTableConstraint(keySpan.end(this), constraintName, true,
                SqlNodeList.of(name), enforced);
        }
    ]
    [ <COMMENT> comment = RsqlStringValue() ]
    {
        if (header || metadata) {
            table.column(new SqlMetadataColumn(s.end(this), name, type, metadataKey, isVirtual,
                header, comment));
        } else {
            table.column(new SqlRegularColumn(s.end(this), name, type, comment));
        }
        if (primaryKey != null) {
            RsqlAddConstraint(table, primaryKey);
        }
    }
}

/** (key = value [, key = value]*) */
SqlNodeList RsqlTableOptions() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
    SqlTableOption option;
}
{
    <LPAREN> { s = span(); }
    option = RsqlTableOption() { list.add(option); }
    ( <COMMA> option = RsqlTableOption() { list.add(option); } )*
    <RPAREN>
    {
        return new SqlNodeList(list, s.end(this));
    }
}

SqlTableOption RsqlTableOption() :
{
    final SqlNode key;
    final SqlNode value;
}
{
    key = RsqlOptionKey() <EQ> value = RsqlOptionValue()
    {
        return new SqlTableOption(Span.of(key).end(value), key, value);
    }
}

/** 'key', or a name such as type, `group.id` or table.exec.state.ttl (see RsqlOptionName). */
SqlNode RsqlOptionKey() :
{
    final SqlNode key;
}
{
    (
        key = RsqlCharLiteral()
    |
        key = RsqlOptionName()
    )
    {
        return key;
    }
}

/** A character, numeric or boolean literal, or a name (Blink: SASL_PLAINTEXT). */
SqlNode RsqlOptionValue() :
{
    final SqlNode value;
}
{
    (
        value = RsqlCharLiteral()
    |
        value = NumericLiteral()
    |
        <TRUE> { value = SqlLiteral.createBoolean(true, getPos()); }
    |
        <FALSE> { value = SqlLiteral.createBoolean(false, getPos()); }
    |
        value = RsqlOptionName()
    )
    {
        return value;
    }
}

/**
 * A dotted name whose segments may also be reserved words: Blink writes option keys such as
 * partition='..' unquoted, and SET keys such as table.exec.x contain TABLE. Unparse quotes
 * every segment, so the name reads back the same.
 */
SqlIdentifier RsqlOptionName() :
{
    final List<String> names = new ArrayList<String>();
    final List<SqlParserPos> positions = new ArrayList<SqlParserPos>();
}
{
    RsqlAddOptionNameSegment(names, positions)
    ( <DOT> RsqlAddOptionNameSegment(names, positions) )*
    {
        return new SqlIdentifier(names, null, SqlParserPos.sum(positions), positions);
    }
}

void RsqlAddOptionNameSegment(List<String> names, List<SqlParserPos> positions) :
{
}
{
    AddIdentifierSegment(names, positions)
|
    LOOKAHEAD({ GrammarSupport.isWord(getToken(1).image) })
    RsqlAddKeywordSegment(names, positions)
}

/** Consumes the next token, a reserved word, as one segment of a name. */
JAVACODE void RsqlAddKeywordSegment(List<String> names, List<SqlParserPos> positions) {
    getNextToken();
    names.add(unquotedIdentifier());
    positions.add(getPos());
}

SqlCharStringLiteral RsqlCharLiteral() :
{
    final SqlNode literal;
}
{
    literal = StringLiteral() {
        return GrammarSupport.charLiteral(literal);
    }
}

String RsqlStringValue() :
{
    final SqlCharStringLiteral literal;
}
{
    literal = RsqlCharLiteral() {
        return literal.getValueAs(String.class);
    }
}

/**
 * CREATE [OR REPLACE] [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS] name AS 'class'
 * [LANGUAGE JAVA | SCALA | PYTHON]
 */
SqlCreate RsqlCreateFunction(Span s, boolean replace, boolean temporary, boolean system) :
{
    final boolean ifNotExists;
    final SqlIdentifier name;
    final String className;
    String language = null;
}
{
    <FUNCTION>
    ifNotExists = RsqlIfNotExists()
    name = CompoundIdentifier()
    <AS> className = RsqlStringValue()
    [
        <LANGUAGE>
        ( <JAVA> | <SCALA> | <PYTHON> ) { language = token.image.toUpperCase(Locale.ROOT); }
    ]
    {
        return new SqlCreateFunction(s.end(this), name, className, language, replace, temporary,
            system, ifNotExists);
    }
}

/**
 * CREATE [OR REPLACE] [TEMPORARY] VIEW [IF NOT EXISTS] name [(cols)] [COMMENT 'c'] AS query
 */
SqlCreate RsqlCreateView(Span s, boolean replace, boolean temporary, boolean system) :
{
    final boolean ifNotExists;
    final SqlIdentifier name;
    SqlNodeList columns = SqlNodeList.EMPTY;
    String comment = null;
    final SqlNode query;
}
{
    <VIEW> {
        if (system) {
            throw GrammarSupport.error(getPos(), "SYSTEM is only allowed for functions");
        }
    }
    ifNotExists = RsqlIfNotExists()
    name = CompoundIdentifier()
    [ columns = ParenthesizedSimpleIdentifierList() ]
    [ <COMMENT> comment = RsqlStringValue() ]
    <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    {
        return new SqlCreateView(s.end(this), name, columns, query, replace, temporary,
            ifNotExists, comment);
    }
}

/**
 * Flink type names Calcite lacks: STRING, BYTES, TIMESTAMP_LTZ[(p)], ARRAY<T>, MULTISET<T>,
 * ROW<name T, ...> and ROW(name T, ...) with Flink's nullable-by-default fields.
 * STRING and BYTES are unbounded (precision Integer.MAX_VALUE).
 */
SqlTypeNameSpec RsqlTypeName() :
{
    final Span s;
    final int precision;
    final SqlTypeName collection;
    final SqlDataTypeSpec element;
    final boolean elementNullable;
    final List<SqlIdentifier> fieldNames = new ArrayList<SqlIdentifier>();
    final List<SqlDataTypeSpec> fieldTypes = new ArrayList<SqlDataTypeSpec>();
}
{
    <STRING> {
        return new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, Integer.MAX_VALUE, getPos());
    }
|
    <BYTES> {
        return new SqlBasicTypeNameSpec(SqlTypeName.VARBINARY, Integer.MAX_VALUE, getPos());
    }
|
    <TIMESTAMP_LTZ> { s = span(); }
    precision = PrecisionOpt() {
        return new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, precision,
            s.end(this));
    }
|
    (
        <ARRAY> { collection = SqlTypeName.ARRAY; }
    |
        <MULTISET> { collection = SqlTypeName.MULTISET; }
    )
    { s = span(); }
    <LT> element = DataType() elementNullable = NullableOptDefaultTrue() <GT> {
        return new RsqlCollectionTypeNameSpec(element.getTypeNameSpec(), elementNullable,
            collection, s.end(this));
    }
|
    <ROW> { s = span(); }
    (
        <LT> RsqlAddRowFields(fieldNames, fieldTypes) <GT>
    |
        <LPAREN> RsqlAddRowFields(fieldNames, fieldTypes) <RPAREN>
    )
    {
        return new RsqlRowTypeNameSpec(s.end(this), fieldNames, fieldTypes);
    }
}

/** name type [NULL | NOT NULL] [, ...]; a field without NOT NULL is nullable. */
void RsqlAddRowFields(List<SqlIdentifier> fieldNames, List<SqlDataTypeSpec> fieldTypes) :
{
    SqlIdentifier name;
    SqlDataTypeSpec type;
    boolean nullable;
}
{
    name = SimpleIdentifier() type = DataType() nullable = NullableOptDefaultTrue() {
        fieldNames.add(name);
        fieldTypes.add(type.withNullable(nullable));
    }
    (
        <COMMA>
        name = SimpleIdentifier() type = DataType() nullable = NullableOptDefaultTrue() {
            fieldNames.add(name);
            fieldTypes.add(type.withNullable(nullable));
        }
    )*
}
