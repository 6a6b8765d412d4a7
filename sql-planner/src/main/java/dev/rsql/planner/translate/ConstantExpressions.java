package dev.rsql.planner.translate;

import dev.rsql.planner.PlanningException;
import org.apache.calcite.DataContexts;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutable;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Evaluates the constant arithmetic and casts of a plan ({@code 1 / 0}, {@code CAST('ten' AS INT)}) while planning:
 * one that throws would fail on the first row, so it fails planning instead, at its position in the statement.
 */
public final class ConstantExpressions {

    /** Operators that may throw on constants and that Calcite's executor evaluates like the generated code. */
    private static final Set<SqlKind> KINDS = EnumSet.of(SqlKind.PLUS, SqlKind.MINUS, SqlKind.TIMES, SqlKind.DIVIDE,
            SqlKind.MOD, SqlKind.CAST, SqlKind.MINUS_PREFIX, SqlKind.PLUS_PREFIX);

    private ConstantExpressions() {
    }

    /** Throws a {@link PlanningException} for the first constant expression of {@code rel} that cannot be evaluated. */
    public static void check(RelNode rel, SqlNode statement, RexBuilder rexBuilder) {
        List<RexNode> constants = new ArrayList<>();
        collect(rel, constants);
        if (constants.isEmpty() || evaluate(constants, rexBuilder) == null) {
            return;
        }
        // One compilation for all; only when it fails, one per expression to name the culprit.
        for (RexNode c : constants) {
            String failure = evaluate(List.of(c), rexBuilder);
            if (failure != null) {
                SqlNode written = find(statement, c.getKind());
                SqlParserPos pos = written != null ? written.getParserPosition() : statement.getParserPosition();
                throw new PlanningException(pos, "the constant expression "
                        + (written != null ? written.toString() : c.toString()) + " cannot be evaluated: " + failure);
            }
        }
    }

    private static void collect(RelNode rel, List<RexNode> into) {
        if (rel instanceof Calc) {
            RexProgram p = ((Calc) rel).getProgram();
            p.getProjectList().forEach(r -> collect(p.expandLocalRef(r), into));
            if (p.getCondition() != null) {
                collect(p.expandLocalRef(p.getCondition()), into);
            }
        } else if (rel instanceof Project) {
            ((Project) rel).getProjects().forEach(e -> collect(e, into));
        } else if (rel instanceof Filter) {
            collect(((Filter) rel).getCondition(), into);
        }
        rel.getInputs().forEach(in -> collect(in, into));
    }

    /** The largest constant subtrees of {@code e} made of the {@link #KINDS}. */
    private static void collect(RexNode e, List<RexNode> into) {
        if (!(e instanceof RexCall)) {
            return;
        }
        RexCall call = (RexCall) e;
        if (isConstant(call)) {
            into.add(call);
            return;
        }
        call.getOperands().forEach(o -> collect(o, into));
    }

    private static boolean isConstant(RexNode e) {
        if (e instanceof RexLiteral) {
            return true;
        }
        return e instanceof RexCall && KINDS.contains(e.getKind())
                && ((RexCall) e).getOperands().stream().allMatch(ConstantExpressions::isConstant);
    }

    /** Null when the expressions evaluate, else why not. */
    private static String evaluate(List<RexNode> exprs, RexBuilder rexBuilder) {
        try {
            RexExecutable executable = RexExecutorImpl.getExecutable(rexBuilder, exprs,
                    rexBuilder.getTypeFactory().builder().build());
            executable.setDataContext(DataContexts.EMPTY);
            executable.execute();
            return null;
        } catch (RuntimeException | ExceptionInInitializerError e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        }
    }

    /** The first call of the kind in the statement whose operands are all literals or such calls. */
    private static SqlNode find(SqlNode node, SqlKind kind) {
        List<SqlNode> children;
        if (node instanceof SqlNodeList) {
            children = ((SqlNodeList) node).getList();
        } else if (node instanceof SqlCall) {
            SqlCall call = (SqlCall) node;
            if (call.getKind() == kind && literalsOnly(call)) {
                return call;
            }
            children = call.getOperandList();
        } else {
            return null;
        }
        for (SqlNode operand : children) {
            SqlNode found = find(operand, kind);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static boolean literalsOnly(SqlNode node) {
        if (node instanceof SqlLiteral || node instanceof SqlDataTypeSpec) {
            return true;
        }
        return node instanceof SqlCall && ((SqlCall) node).getOperandList().stream()
                .allMatch(o -> o == null || literalsOnly(o));
    }
}
