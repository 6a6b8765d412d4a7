package dev.rsql.planner.functions;

import dev.rsql.planner.PlanningException;
import dev.rsql.runtime.event.EventPattern;
import dev.rsql.runtime.event.EventPatternException;
import dev.rsql.runtime.event.TemplateVariables;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.Locale;
import java.util.function.Consumer;

/**
 * Checks the pattern of {@code EVENT_MATCHES} and the variables of {@code EVENT_TEMPLATE} when the script is
 * planned: each must be a string literal that compiles. A mistake is reported at its place in the script (the
 * literal's position plus its place inside the literal) and, in the message, at its place in the pattern.
 */
final class EventLiterals {

    private EventLiterals() {
    }

    /** Checks {@code call} if it is one of the event functions (not replaced by a script's own function). */
    static void check(SqlCall call, ScriptFunctions scriptFunctions) {
        if (!(call.getOperator() instanceof SqlUnresolvedFunction)) {
            return;
        }
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (scriptFunctions.get(name) != null) {
            return;
        }
        if (name.equals("EVENT_MATCHES") && call.operandCount() == 2) {
            literal(call, 1, "pattern", EventPattern::compile);
        } else if (name.equals("EVENT_TEMPLATE") && call.operandCount() == 3) {
            literal(call, 1, "variables", TemplateVariables::compile);
        }
    }

    private static void literal(SqlCall call, int operand, String what, Consumer<String> compile) {
        SqlNode node = call.operand(operand);
        String function = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (!(node instanceof SqlCharStringLiteral)) {
            throw new PlanningException(node.getParserPosition(), function + " takes its " + what
                    + " as a string literal");
        }
        try {
            compile.accept(((SqlCharStringLiteral) node).getValueAs(String.class));
        } catch (EventPatternException e) {
            throw new PlanningException(inScript(node.getParserPosition(), e), function + " " + what + ", "
                    + e.getMessage());
        }
    }

    /** Where in the script the mistake is: the literal's text starts one column after its opening quote. */
    private static SqlParserPos inScript(SqlParserPos literal, EventPatternException e) {
        int line = literal.getLineNum() + e.line() - 1;
        int column = e.line() == 1 ? literal.getColumnNum() + e.column() : e.column();
        return new SqlParserPos(line, column);
    }
}
