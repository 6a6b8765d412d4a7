package dev.rsql.planner.functions;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlJsonValueFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites a statement before validation where the dialect's meaning differs from what Calcite's parser built:
 * <ul>
 *   <li>{@code IF(c, a, b)} becomes {@code CASE WHEN c THEN a ELSE b END} (typing and lazy evaluation of CASE);</li>
 *   <li>{@code JSON_VALUE(json, path)} without SQL/JSON clauses becomes Blink's JSON_VALUE;</li>
 *   <li>{@code SUBSTRING} gets Blink/Flink semantics for a start &lt;= 0, and it, {@code POSITION} and {@code OVERLAY}
 *   count characters (code points) as Flink does, where Calcite's count UTF-16 units;</li>
 *   <li>the pattern of {@code EVENT_MATCHES} and the variables of {@code EVENT_TEMPLATE} are checked
 *   ({@link EventLiterals});</li>
 *   <li>each {@code UUID()} gets a call-site number, so two calls in one row give two values;</li>
 *   <li>{@code LATERAL TABLE(f(...)) AS T(a, b)} where f is a bean returning maps gets a function whose columns are
 *   the alias names.</li>
 * </ul>
 * Mutates and returns the tree (callers validate copies of view queries).
 */
public final class FunctionRewriter {

    private final ScriptFunctions scriptFunctions;
    private int callSites;

    public FunctionRewriter(ScriptFunctions scriptFunctions) {
        this.scriptFunctions = scriptFunctions;
    }

    /** Rewrites the tree in place; returns the (possibly replaced) root. */
    public SqlNode rewrite(SqlNode node) {
        if (node instanceof SqlNodeList) {
            SqlNodeList list = (SqlNodeList) node;
            for (int i = 0; i < list.size(); i++) {
                SqlNode e = list.get(i);
                if (e != null) {
                    SqlNode r = rewrite(e);
                    if (r != e) {
                        list.set(i, r);
                    }
                }
            }
            return node;
        }
        if (!(node instanceof SqlCall)) {
            return node;
        }
        SqlCall c = replace((SqlCall) node);
        List<SqlNode> operands = c.getOperandList();
        for (int i = 0; i < operands.size(); i++) {
            SqlNode e = operands.get(i);
            if (e == null) {
                continue;
            }
            SqlNode r = rewrite(e);
            if (r != e) {
                c.setOperand(i, r);
            }
        }
        return c;
    }

    /** The call itself, or what replaces it. */
    private SqlCall replace(SqlCall c) {
        EventLiterals.check(c, scriptFunctions);
        SqlOperator op = c.getOperator();
        if (op instanceof SqlUnresolvedFunction && op.getName().equalsIgnoreCase("IF") && c.operandCount() == 3
                && scriptFunctions.get("IF") == null) {
            return new SqlCase(c.getParserPosition(), null, SqlNodeList.of(c.operand(0)), SqlNodeList.of(c.operand(1)),
                    c.operand(2));
        }
        if (op instanceof SqlJsonValueFunction && c.operandCount() == 2 && scriptFunctions.get("JSON_VALUE") == null) {
            return operator("JSON_VALUE").createCall(c.getParserPosition(), c.getOperandList());
        }
        // the standard syntax of these parses to Calcite's operator, which counts UTF-16 units, not characters
        if ((op == SqlStdOperatorTable.SUBSTRING || op == SqlStdOperatorTable.POSITION
                || op == SqlStdOperatorTable.OVERLAY) && scriptFunctions.get(op.getName()) == null) {
            return operator(op.getName()).createCall(c.getParserPosition(), c.getOperandList());
        }
        if (c.getKind() == SqlKind.AS && c.operandCount() > 2) {
            aliasColumns(c);
        }
        if (op instanceof SqlUnresolvedFunction && op.getName().equalsIgnoreCase("UUID") && c.operandCount() == 0
                && scriptFunctions.get("UUID") == null) {
            // Each UUID() call gets its own number: identical calls would otherwise be computed once per row.
            return op.createCall(c.getParserPosition(),
                    SqlLiteral.createExactNumeric(String.valueOf(++callSites), c.getParserPosition()));
        }
        return c;
    }

    private static SqlOperator operator(String name) {
        for (SqlOperator op : BuiltinFunctions.operators()) {
            if (op.getName().equals(name)) {
                return op;
            }
        }
        throw new IllegalStateException("no built-in " + name);
    }

    /** {@code AS(LATERAL(TABLE(f(...))), T, a, b)} with f a bean table function returning maps. */
    private void aliasColumns(SqlCall as) {
        SqlNode source = as.operand(0);
        if (source.getKind() == SqlKind.LATERAL) {
            source = ((SqlCall) source).operand(0);
        }
        if (source.getKind() != SqlKind.COLLECTION_TABLE || !(((SqlCall) source).operand(0) instanceof SqlBasicCall)) {
            return;
        }
        SqlBasicCall fn = ((SqlCall) source).operand(0);
        if (!(fn.getOperator() instanceof SqlUnresolvedFunction) && !(fn.getOperator() instanceof RsqlTableFunction)) {
            return;
        }
        SqlOperator user = scriptFunctions.get(fn.getOperator().getName());
        if (!(user instanceof RsqlTableFunction) || !((RsqlTableFunction) user).columnsFromAlias()) {
            return;
        }
        List<String> columns = new ArrayList<>();
        for (int i = 2; i < as.operandCount(); i++) {
            columns.add(((SqlIdentifier) as.operand(i)).getSimple());
        }
        fn.setOperator(((RsqlTableFunction) user).withAliasColumns(columns));
    }
}
