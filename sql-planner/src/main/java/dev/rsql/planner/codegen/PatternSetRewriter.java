package dev.rsql.planner.codegen;

import dev.rsql.planner.functions.Overload;
import dev.rsql.planner.functions.PatternSet;
import dev.rsql.planner.functions.RsqlScalarFunction;
import dev.rsql.planner.functions.StringFunctions;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Replaces, in every calc program of a job, {@code column LIKE 'constant'} and {@code REGEXP(column, 'constant')} on
 * an input column by a test against the job's {@link PatternSet} for that column (by column name), so that all the
 * rules of a script testing a column match it in one pass. Patterns on other expressions, invalid regular
 * expressions (REGEXP gives NULL for them) and LIKE patterns that do not compile are left to the single-pattern path.
 */
final class PatternSetRewriter {

    private final String unitName;
    private final Map<String, PatternSet.Builder> sets = new LinkedHashMap<>();
    /** The pattern test each operator this rewriter made stands for. */
    private final Map<SqlOperator, Test> tests = new IdentityHashMap<>();

    /** A test of pattern {@code index} of the set named {@code setName}, whose builder is {@code set}. */
    record Test(String setName, int index, PatternSet.Builder set) {
    }

    PatternSetRewriter(String unitName) {
        this.unitName = unitName;
    }

    RexProgram rewrite(RexProgram program, RexBuilder rexBuilder) {
        List<RexNode> exprs = program.getExprList();
        RexShuttle shuttle = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall c = (RexCall) super.visitCall(call);
                boolean like = c.getOperator() == SqlStdOperatorTable.LIKE;
                if (!like && !isBuiltin(c.getOperator(), "REGEXP", StringFunctions.class)
                        || c.getOperands().size() < 2) {
                    return c;
                }
                int field = inputField(c.getOperands().get(0), exprs);
                String pattern = charLiteral(c.getOperands().get(1), exprs);
                String escape = c.getOperands().size() > 2 ? charLiteral(c.getOperands().get(2), exprs) : null;
                if (field < 0 || pattern == null || (c.getOperands().size() > 2 && (!like || escape == null))) {
                    return c;
                }
                String column = program.getInputRowType().getFieldList().get(field).getName();
                PatternSet.Builder set = sets.computeIfAbsent(column, k -> new PatternSet.Builder());
                int index;
                try {
                    index = like ? set.addLike(pattern, escape) : set.addRegex(validRegex(pattern));
                } catch (IllegalArgumentException e) {
                    return c;
                }
                SqlOperator test = operator(setName(column), index);
                tests.put(test, new Test(setName(column), index, set));
                return rexBuilder.makeCall(c.getType(), test, List.of(c.getOperands().get(0)));
            }
        };
        return RexProgramBuilder.create(rexBuilder, program.getInputRowType(), exprs, program.getProjectList(),
                program.getCondition(), program.getOutputRowType(), shuttle, true).getProgram(false);
    }

    /** The pattern test {@code op} stands for, or null when it is not one of this rewriter's. */
    Test test(SqlOperator op) {
        return tests.get(op);
    }

    /** Builds and registers every set; called before the generated classes are loaded. */
    void register() {
        sets.forEach((column, set) -> set.register(setName(column)));
    }

    private String setName(String column) {
        return unitName + "#" + column;
    }

    private static SqlOperator operator(String setName, int index) {
        // one name per pattern: calls are told apart by their digest, which shows operator and operands only
        return GeneratedCallOperator.of("MATCHES[" + setName + "#" + index + "]", (translator, call, operands) -> Expressions.call(
                Expressions.call(PatternSet.class, "named", Expressions.constant(setName)), "matches",
                operands.get(0), Expressions.constant(index)));
    }

    private static String validRegex(String regex) {
        try {
            Pattern.compile(regex);
            return regex;
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The dialect's built-in function {@code name}, implemented by {@code impl} (not a user function so named). */
    static boolean isBuiltin(SqlOperator op, String name, Class<?> impl) {
        if (!(op instanceof RsqlScalarFunction) || !op.getName().equalsIgnoreCase(name)
                || ((RsqlScalarFunction) op).instance() != null) {
            return false;
        }
        for (Overload o : ((RsqlScalarFunction) op).overloads()) {
            if (o.invocation().method().getDeclaringClass() != impl) {
                return false;
            }
        }
        return true;
    }

    private static RexNode resolve(RexNode node, List<RexNode> exprs) {
        return node instanceof RexLocalRef ? exprs.get(((RexLocalRef) node).getIndex()) : node;
    }

    static int inputField(RexNode node, List<RexNode> exprs) {
        RexNode n = resolve(node, exprs);
        return n instanceof RexInputRef ? ((RexInputRef) n).getIndex() : -1;
    }

    static String charLiteral(RexNode node, List<RexNode> exprs) {
        RexNode n = resolve(node, exprs);
        return n instanceof RexLiteral ? ((RexLiteral) n).getValueAs(String.class) : null;
    }
}
