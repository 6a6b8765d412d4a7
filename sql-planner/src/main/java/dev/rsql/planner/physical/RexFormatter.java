package dev.rsql.planner.physical;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDigestIncludeType;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlSyntax;

import java.util.List;
import java.util.stream.Collectors;

/** Renders a calc program as readable SQL-like text for EXPLAIN, with input fields by name. */
public final class RexFormatter {

    private final List<String> inputNames;

    private RexFormatter(RelDataType inputType) {
        this.inputNames = inputType.getFieldNames();
    }

    public static String describe(RexProgram program) {
        RexFormatter f = new RexFormatter(program.getInputRowType());
        StringBuilder sb = new StringBuilder();
        if (program.getCondition() != null) {
            sb.append("where ").append(f.format(program.expandLocalRef(program.getCondition()))).append("; ");
        }
        List<String> outNames = program.getOutputRowType().getFieldNames();
        sb.append("select ");
        for (int i = 0; i < program.getProjectList().size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            RexNode e = program.expandLocalRef(program.getProjectList().get(i));
            String text = f.format(e);
            sb.append(text);
            if (!text.equals(outNames.get(i))) {
                sb.append(" AS ").append(outNames.get(i));
            }
        }
        return sb.toString();
    }

    /** An expression over rows of {@code inputType}, fields by name: {@code (qty >= (level * 2))}. */
    public static String describe(RexNode expression, RelDataType inputType) {
        return new RexFormatter(inputType).format(expression);
    }

    private String format(RexNode node) {
        if (node instanceof RexInputRef) {
            return inputNames.get(((RexInputRef) node).getIndex());
        }
        if (node instanceof RexLiteral) {
            RexLiteral lit = (RexLiteral) node;
            return lit.isNull() ? "NULL" : lit.computeDigest(RexDigestIncludeType.NO_TYPE);
        }
        if (node instanceof RexFieldAccess) {
            RexFieldAccess fa = (RexFieldAccess) node;
            return format(fa.getReferenceExpr()) + "." + fa.getField().getName();
        }
        if (node instanceof RexCall) {
            RexCall call = (RexCall) node;
            List<String> ops = call.getOperands().stream().map(this::format).collect(Collectors.toList());
            if (call.getKind() == SqlKind.CAST) {
                return "CAST(" + ops.get(0) + " AS " + call.getType().getFullTypeString() + ")";
            }
            if (call.getOperator().getSyntax() == SqlSyntax.BINARY && ops.size() == 2) {
                return "(" + ops.get(0) + " " + call.getOperator().getName() + " " + ops.get(1) + ")";
            }
            if (call.getOperator().getSyntax() == SqlSyntax.PREFIX && ops.size() == 1) {
                return call.getOperator().getName() + " " + ops.get(0);
            }
            if (call.getOperator().getSyntax() == SqlSyntax.POSTFIX && ops.size() == 1) {
                return ops.get(0) + " " + call.getOperator().getName();
            }
            return call.getOperator().getName() + "(" + String.join(", ", ops) + ")";
        }
        return node.toString();
    }
}
